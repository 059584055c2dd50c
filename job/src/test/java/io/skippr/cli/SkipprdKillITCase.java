package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.ShopFiles;
import io.skippr.sinks.files.CommitLog;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous {@code skipprd sync} process killed with SIGKILL resumes from its retained
 * checkpoint when started again, and the output holds every row exactly once.
 */
class SkipprdKillITCase {
    @TempDir Path dir;

    /** The skipprd processes started: none outlives the test, also when an assertion fails. */
    private final List<Process> started = new java.util.ArrayList<>();

    @org.junit.jupiter.api.AfterEach
    void stopEveryProcess() throws Exception {
        for (Process p : started) {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void killMinus9ThenRestartResumesFromTheRetainedCheckpoint() throws Exception {
        Path in = dir.resolve("in");
        Files.createDirectories(in);
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  orders: {data_source: data_sources.shop, data_sink: data_sinks.out}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                data_sinks:
                  out:
                    LocalFile: {path: out}
                """);
        SkipprdProcess.fastCheckpoints(dir);
        Path out = dir.resolve("out");

        ShopFiles.write(in, "a.csv", 1, 3001, 0);
        Process first = skipprd("first");
        await(() -> new CommitLog(out).committedRows() >= 3000, first, "the first file");
        ShopFiles.write(in, "b.csv", 3001, 6001, 0);
        await(() -> new CommitLog(out).committedRows() > 3000, first, "part of the second file");
        first.destroyForcibly(); // SIGKILL: no shutdown hook, no cancel, no final checkpoint
        assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).isEqualTo(137);

        ShopFiles.write(in, "c.csv", 6001, 8001, 0);
        Process second = skipprd("second");
        await(() -> new CommitLog(out).committedRows() >= 8000, second, "all three files");
        assertTheWebUiShowsTheRunButTakesNoJars(Files.readString(dir.resolve("second.err")));
        second.destroy(); // SIGTERM: cancels the job and keeps its checkpoint
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(Files.readString(dir.resolve("state/orders/logs/skipprd.log")))
                .contains("Resuming pipeline orders from checkpoint");
        assertThat(output()).doesNotContain("starts without its checkpoint");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs =
                        db.createStatement()
                                .executeQuery(
                                        "SELECT count(*),"
                                                + " count(DISTINCT _skippr_id), sum(id) FROM read_parquet("
                                                + files(out)
                                                + ")")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(8000);
            assertThat(rs.getLong(2)).isEqualTo(8000);
            assertThat(rs.getBigDecimal(3))
                    .isEqualByComparingTo(BigDecimal.valueOf(ShopFiles.idSum(1, 8001)));
        }
    }

    /**
     * The embedded web UI answers, naming the job after the pipeline, and its jar upload ("Submit
     * New Job") is off: before, any local user could upload a jar and run it in skipprd's JVM.
     */
    private static void assertTheWebUiShowsTheRunButTakesNoJars(String err) throws Exception {
        java.util.regex.Matcher ui =
                java.util.regex.Pattern.compile("Flink web UI: (http://127\\.0\\.0\\.1:\\d+)")
                        .matcher(err);
        assertThat(ui.find()).as(err).isTrue();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpResponse.BodyHandler<String> body =
                java.net.http.HttpResponse.BodyHandlers.ofString();
        java.net.URI base = java.net.URI.create(ui.group(1));
        java.net.http.HttpResponse<String> overview =
                http.send(
                        java.net.http.HttpRequest.newBuilder(base.resolve("/jobs/overview"))
                                .build(),
                        body);
        assertThat(overview.statusCode()).isEqualTo(200);
        assertThat(overview.body())
                .as("the job reads as the pipeline in the UI")
                .contains("\"name\":\"skippr orders\"");
        assertThat(
                        http.send(
                                        java.net.http.HttpRequest.newBuilder(base.resolve("/jars"))
                                                .build(),
                                        body)
                                .statusCode())
                .as("GET /jars")
                .isEqualTo(404);
        assertThat(
                        http.send(
                                        java.net.http.HttpRequest.newBuilder(
                                                        base.resolve("/jars/upload"))
                                                .POST(
                                                        java.net.http.HttpRequest.BodyPublishers
                                                                .ofString("not a jar"))
                                                .build(),
                                        body)
                                .statusCode())
                .as("POST /jars/upload")
                .isEqualTo(404);
    }

    private Process skipprd(String name) throws Exception {
        Process process = start(name);
        started.add(process);
        return process;
    }

    private Process start(String name) throws Exception {
        return SkipprdProcess.start(
                dir,
                name,
                Map.of(
                        "SKIPPR_STATE_DIR",
                        dir.resolve("state").toString(),
                        "SKIPPR_FLINK_CONF_DIR",
                        dir.resolve("flink-conf").toString()),
                List.of(),
                "sync",
                "--pipeline",
                "orders",
                "--config",
                dir.resolve("skippr.yml").toString());
    }

    private void await(Callable<Boolean> condition, Process process, String what) throws Exception {
        SkipprdProcess.await(
                process, Duration.ofSeconds(90), what + " was committed", condition, this::output);
    }

    private String output() throws Exception {
        StringBuilder text = new StringBuilder();
        for (String name : List.of("first.out", "first.err", "second.out", "second.err")) {
            File f = dir.resolve(name).toFile();
            if (f.exists()) {
                text.append(Files.readString(f.toPath()));
            }
        }
        return text.toString();
    }

    private static String files(Path out) {
        return new CommitLog(out)
                .committedFiles().stream()
                        .map(f -> "'" + f + "'")
                        .collect(Collectors.joining(",", "[", "]"));
    }
}
