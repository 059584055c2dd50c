package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.ShopFiles;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Skippr's metrics, scraped from Flink's Prometheus reporter as a monitor would: a continuous
 * {@code skipprd sync} with the reporter configured in its Flink configuration.
 */
class MetricsPrometheusITCase {
    private static final Pattern SAMPLE =
            Pattern.compile("^(\\w+)\\{([^}]*)\\} (\\S+)$", Pattern.MULTILINE);

    @TempDir Path dir;

    @Test
    void theReporterShowsEachStreamsCountsAndTheLastCommit() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 301, 2);
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  orders: {data_source: data_sources.shop, data_sink: data_sinks.lake}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, stream: orders}
                data_sinks:
                  lake:
                    LocalFile: {path: out}
                """);
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Path conf = SkipprdProcess.fastCheckpoints(dir);
        Files.writeString(
                conf.resolve("config.yaml"),
                Files.readString(conf.resolve("config.yaml"))
                        + "\nmetrics.reporter.prom.factory.class:"
                        + " org.apache.flink.metrics.prometheus.PrometheusReporterFactory\n"
                        + "metrics.reporter.prom.port: "
                        + port
                        + "\n");
        long started = System.currentTimeMillis();
        Process skipprd =
                SkipprdProcess.start(
                        dir,
                        "sync",
                        Map.of(
                                "SKIPPR_STATE_DIR", dir.resolve("state").toString(),
                                "SKIPPR_FLINK_CONF_DIR", conf.toString()),
                        List.of(),
                        "sync",
                        "--pipeline",
                        "orders");
        HttpClient http = HttpClient.newHttpClient();
        String[] scraped = {""};
        try {
            SkipprdProcess.await(
                    skipprd,
                    Duration.ofSeconds(90),
                    "the reporter shows 300 rows written and a commit",
                    () -> {
                        // the rows are in the sink's files once a commit after the last row ran;
                        // only a scrape taken after that sees every counter final: one taken
                        // while the last rows were written, before the commit, lacked their bytes
                        if (landed()[0] != 300) {
                            return false;
                        }
                        try {
                            scraped[0] =
                                    http.send(
                                                    HttpRequest.newBuilder(
                                                                    URI.create(
                                                                            "http://127.0.0.1:"
                                                                                    + port
                                                                                    + "/metrics"))
                                                            .build(),
                                                    HttpResponse.BodyHandlers.ofString())
                                            .body();
                        } catch (java.io.IOException e) {
                            return false; // the reporter starts with the job's task manager
                        }
                        // a scrape is not atomic: one that reads the commit counter before a
                        // commit ends and its time after it shows commits 0, so both are awaited
                        return sum(scraped[0], "recordsWritten", "") == 300
                                && sum(scraped[0], "commits", "") > 0
                                && sum(scraped[0], "lastCommitTime", "") > 0
                                && sum(scraped[0], "splitsBehind", "stream=\"orders\"") == 0;
                    },
                    () -> scraped[0] + Files.readString(dir.resolve("sync.err")));
        } finally {
            skipprd.destroy();
            skipprd.waitFor();
        }
        String metrics = scraped[0];
        // the names docs/monitoring.md shows
        assertThat(metrics)
                .contains("flink_taskmanager_job_task_operator_skippr_pipeline_stream_recordsRead{")
                .contains(
                        "flink_taskmanager_job_task_operator_skippr_pipeline_stream_stage_recordsDeadlettered{")
                .contains("flink_taskmanager_job_task_operator_skippr_lastCommitTime{")
                .contains("flink_taskmanager_job_task_operator_skippr_stream_bytesRead{")
                .contains(
                        "flink_jobmanager_job_operator_coordinator_enumerator_skippr_stream_splitsBehind{")
                .contains(
                        "flink_jobmanager_job_operator_coordinator_enumerator_skippr_stream_sourceLagMillis{");
        assertThat(sum(metrics, "recordsRead", "stream=\"orders\"")).isEqualTo(302);
        assertThat(sum(metrics, "recordsRead", "pipeline=\"orders\"")).isEqualTo(302);
        assertThat(sum(metrics, "recordsWritten", "stream=\"orders\"")).isEqualTo(300);
        assertThat(sum(metrics, "recordsDeadlettered", "stage=\"transform\"")).isEqualTo(2);
        assertThat(sum(metrics, "recordsDeadlettered", "stage=\"load\"")).isZero();
        assertThat(sum(metrics, "commits", "")).isPositive();
        // the source read the whole file, header and the two bad lines included
        assertThat(sum(metrics, "bytesRead", "stream=\"orders\""))
                .isEqualTo(Files.size(dir.resolve("in/a.csv")));
        // the file is read: nothing found waits to be read
        assertThat(sum(metrics, "sourceLagMillis", "stream=\"orders\"")).isZero();
        assertThat(max(metrics, "lastCommitTime"))
                .isBetween((double) started, (double) System.currentTimeMillis());
        // what the counters say is what the sink holds
        assertThat(landed()).containsExactly(300, 300, ShopFiles.idSum(1, 301));
    }

    /** The rows in the sink's Parquet files: count, distinct ids, sum of ids. */
    private long[] landed() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs =
                        duck.createStatement()
                                .executeQuery(
                                        "SELECT count(*), count(DISTINCT id), coalesce(sum(id), 0)"
                                                + " FROM read_parquet('"
                                                + dir.resolve("out")
                                                + "/**/*.parquet')")) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2), rs.getLong(3)};
        } catch (java.sql.SQLException e) {
            return new long[] {-1, -1, -1}; // no file yet
        }
    }

    /**
     * The sum of the samples whose metric name ends in {@code name} and whose labels contain {@code
     * label}; -1 when there is none.
     */
    private static double sum(String metrics, String name, String label) {
        double sum = 0;
        boolean found = false;
        Matcher m = SAMPLE.matcher(metrics);
        while (m.find()) {
            if (m.group(1).endsWith("_" + name) && m.group(2).contains(label)) {
                sum += Double.parseDouble(m.group(3));
                found = true;
            }
        }
        return found ? sum : -1;
    }

    private static double max(String metrics, String name) {
        double max = -1;
        Matcher m = SAMPLE.matcher(metrics);
        while (m.find()) {
            if (m.group(1).endsWith("_" + name)) {
                max = Math.max(max, Double.parseDouble(m.group(3)));
            }
        }
        return max;
    }
}
