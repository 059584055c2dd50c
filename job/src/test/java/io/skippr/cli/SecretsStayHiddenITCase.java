package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.files.CommitLog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous {@code skipprd sync} whose source and sink log in with a random password, and whose
 * one bad row becomes a deadletter: while it runs, nothing its Flink web UI serves (job
 * configuration, plan, exceptions, the JobManager's configuration and environment) holds the
 * password; after it stops, neither does its output, its log, its state folder (checkpoints
 * included), the deadletter files or skippr.yml. The state folder is the owner's alone.
 */
class SecretsStayHiddenITCase {
    private static final Pattern UI =
            Pattern.compile("Flink web UI: (http://127\\.0\\.0\\.1:\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir Path dir;

    private TestLogin login;

    @BeforeEach
    void setUp() throws SQLException {
        login = new TestLogin("skippr_secret_");
        login.pg.exec(
                "CREATE TABLE events (id int PRIMARY KEY, doc json NOT NULL)",
                "INSERT INTO events SELECT g, json_build_object('n', g) FROM generate_series(1, 50) g",
                // json keeps the escape as written; the sink's jsonb cannot hold it: a deadletter
                "INSERT INTO events VALUES (51, '{\"bad\": \"\\u0000\"}')");
    }

    @AfterEach
    void tearDown() throws SQLException {
        login.close();
    }

    private String connection() {
        return login.yaml("      sslmode: disable\n");
    }

    @Test
    void noResolvedPasswordInTheUiOutputLogStateDeadlettersOrConfig() throws Exception {
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                "pipelines:\n  events:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                        + "data_sources:\n  app_db:\n    Postgres:\n"
                        + connection()
                        + "      schema: "
                        + login.pg.schema
                        + "\n      tables: [events]\n"
                        + "data_sinks:\n  warehouse:\n    Postgres:\n"
                        + connection()
                        + "      schema: "
                        + login.pg.schema
                        + "_out\n"
                        + "deadletter_sinks:\n  rejects:\n    LocalFile:\n"
                        + "      path: rejects\n      format: jsonl\n");
        Path state = dir.resolve("state");
        Process sync =
                SkipprdProcess.start(
                        dir,
                        "sync",
                        Map.of(
                                "LOGIN_PASSWORD",
                                login.password,
                                "SKIPPR_STATE_DIR",
                                state.toString()),
                        List.of(),
                        "sync",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "events",
                        "--log");
        List<String> served = new ArrayList<>();
        try {
            String ui = awaitUi(sync);
            awaitLanded(sync);
            for (String path :
                    List.of("/jobmanager/config", "/jobmanager/environment", "/jobs/overview")) {
                served.add(get(ui + path));
            }
            for (JsonNode job : JSON.readTree(get(ui + "/jobs/overview")).path("jobs")) {
                String id = job.path("jid").asText();
                for (String path : List.of("", "/config", "/exceptions", "/plan")) {
                    served.add(get(ui + "/jobs/" + id + path));
                }
            }
        } finally {
            sync.destroy();
            assertThat(sync.waitFor(60, TimeUnit.SECONDS)).as("skipprd stops on SIGTERM").isTrue();
        }

        assertThat(served).hasSizeGreaterThanOrEqualTo(7);
        assertThat(String.join("\n", served))
                .as("what the Flink web UI serves")
                .contains("events")
                .doesNotContain(login.password);
        assertThat(new CommitLog(dir.resolve("rejects")).committedKeys())
                .as("the bad row became a committed deadletter")
                .isNotEmpty();
        List<Path> scanned = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                assertThat(text).as("%s holds the password", file).doesNotContain(login.password);
                scanned.add(dir.relativize(file));
            }
        }
        assertThat(scanned)
                .as("output, log, checkpoints, deadletters and skippr.yml were all scanned")
                .anyMatch(p -> p.toString().equals("sync.err"))
                .anyMatch(p -> p.startsWith("state") && p.toString().endsWith("skipprd.log"))
                .anyMatch(p -> p.toString().contains("checkpoints"))
                .anyMatch(p -> p.startsWith("rejects") && p.toString().endsWith(".jsonl"))
                .contains(Path.of("skippr.yml"));
        for (Path folder : List.of(state, state.resolve("events"))) {
            assertThat(Files.getPosixFilePermissions(folder))
                    .as("%s is its owner's alone", folder)
                    .extracting(Object::toString)
                    .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE", "OWNER_EXECUTE");
        }
    }

    private String awaitUi(Process sync) throws Exception {
        Path err = dir.resolve("sync.err");
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(deadline)) {
            assertThat(sync.isAlive()).as("skipprd is running: %s", read(err)).isTrue();
            Matcher m = UI.matcher(read(err));
            if (m.find()) {
                return m.group(1);
            }
            sync.waitFor(100, TimeUnit.MILLISECONDS); // returns at once if skipprd died
        }
        throw new AssertionError("skipprd printed no web UI address: " + read(err));
    }

    /** Waits until the 50 good rows are in the sink and the deadletter is committed. */
    private void awaitLanded(Process sync) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        long rows = -1;
        while (Instant.now().isBefore(deadline)) {
            rows = count();
            if (rows == 50 && !new CommitLog(dir.resolve("rejects")).committedKeys().isEmpty()) {
                return;
            }
            assertThat(sync.waitFor(200, TimeUnit.MILLISECONDS))
                    .as("skipprd exited early: %s", read(dir.resolve("sync.err")))
                    .isFalse();
        }
        throw new AssertionError("after 3 minutes the sink holds " + rows + " of 50 rows");
    }

    private long count() throws SQLException {
        try (Connection c = login.pg.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM information_schema.tables WHERE"
                                        + " table_schema = '"
                                        + login.pg.schema
                                        + "_out' AND table_name = 'events'")) {
            rs.next();
            if (rs.getLong(1) == 0) {
                return 0;
            }
        }
        try (Connection c = login.pg.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM \"" + login.pg.schema + "_out\".events")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", url).isEqualTo(200);
        return response.body();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
