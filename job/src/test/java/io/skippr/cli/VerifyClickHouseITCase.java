package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestEnv;
import io.skippr.job.TestPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} of a ClickHouse destination after a real {@code sync --once} (write mode
 * append): every type equal under the sink's documented forms (timestamps to whole seconds, read
 * with FINAL), exit 0; then rows broken on purpose (one deleted, one duplicated under a new {@code
 * _skippr_id}, one changed and one set to NULL by a later version of their row, one added) are
 * named key for key, exit 1.
 */
class VerifyClickHouseITCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int ROWS = 3000;

    /** The source columns of mixed, as ClickHouse names them (unchanged). */
    private static final List<String> COLUMNS =
            List.of(
                    "id",
                    "amount",
                    "any_number",
                    "at",
                    "local_at",
                    "day",
                    "clock",
                    "note",
                    "payload",
                    "doc",
                    "tags",
                    "r",
                    "f",
                    "flag",
                    "u");

    @TempDir Path dir;

    private TestPostgres pg;
    private final String database =
            "skippr_verify_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_verify_ch_");
        // the smallest subnormal double would be a load deadletter on ClickHouse
        pg.exec(VerifyCli.mixedTable(ROWS, "2.2250738585072014e-308"));
        pg.exec(
                "CREATE TABLE pairs (code text, u uuid, v int, PRIMARY KEY (code, u))",
                "INSERT INTO pairs SELECT (ARRAY['A', 'a', 'é', 'Z', 'b'])[g % 5 + 1],"
                        + " md5(g::text)::uuid, g FROM generate_series(1, "
                        + ROWS
                        + ") g");
    }

    @AfterEach
    void tearDown() throws Exception {
        query("DROP DATABASE IF EXISTS `" + database + "`");
        pg.close();
    }

    private static String query(String sql) throws Exception {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://"
                                                        + TestEnv.require(
                                                                "SKIPPR_TEST_CH_HOST", "ClickHouse")
                                                        + ":"
                                                        + TestEnv.require(
                                                                "SKIPPR_TEST_CH_PORT", "ClickHouse")
                                                        + "/"))
                                .POST(HttpRequest.BodyPublishers.ofString(sql))
                                .build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(response.statusCode()).as(sql + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

    private CliRun verify(String... more) {
        return VerifyCli.verify(dir, "ch", more);
    }

    @Test
    void aClickHouseDestinationIsEqualThenBrokenKeysAreNamed() throws Exception {
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  ch:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n    write_mode: append\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("mixed", null).replace("['mixed']", "[mixed, pairs]")
                        + "data_sinks:\n  warehouse:\n    ClickHouse:\n      host: "
                        + TestEnv.require("SKIPPR_TEST_CH_HOST", "ClickHouse")
                        + "\n      port: "
                        + TestEnv.require("SKIPPR_TEST_CH_PORT", "ClickHouse")
                        + "\n      database: "
                        + database
                        + "\n");
        CliRun sync = VerifyCli.syncOnce(dir, "ch");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err()).contains("Pipeline sync complete: 2 streams, 6000 records read");

        CliRun clean = verify();
        assertThat(clean.exitCode()).as(clean.all()).isZero();
        assertThat(clean.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different not yet synced\n"
                                + "mixed 3000 3000 0 0 0 0 0\n"
                                + "pairs 3000 3000 0 0 0 0 0\n"
                                + "All 2 streams of pipeline ch match.\n");

        breakDestination();
        CliRun broken = verify();
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different not yet synced\n"
                                + "mixed 3000 3001 1 1 1 2 0\n"
                                + "pairs 3000 3001 0 1 0 0 0\n"
                                + "mixed: missing keys: 10\n"
                                + "mixed: extra keys: 100000\n"
                                + "mixed: duplicated keys: 20\n"
                                + "mixed: different keys: 30, 40\n"
                                + "pairs: extra keys: (zz, 00000000-0000-0000-0000-000000000000)\n"
                                + "Pipeline ch: 2 of 2 streams differ, 0 not verified.\n");
        JsonNode stream =
                JSON.readTree(verify("--json", "--stream", "mixed").out()).get("streams").get(0);
        assertThat(stream.get("different").toString())
                .isEqualTo("{\"count\":2,\"first_keys\":[30,40]}");

        String config = Files.readString(dir.resolve("skippr.yml"));
        Files.writeString(
                dir.resolve("skippr.yml"),
                config.replace(
                        "port: " + TestEnv.require("SKIPPR_TEST_CH_PORT", "ClickHouse"),
                        "port: 1"));
        CliRun unreachable = verify();
        assertThat(unreachable.exitCode()).as(unreachable.all()).isEqualTo(2);
        assertThat(unreachable.out()).isEmpty();
        assertThat(unreachable.err())
                .startsWith(
                        "error: cannot read the data sink: Cannot reach ClickHouse at http://"
                                + TestEnv.require("SKIPPR_TEST_CH_HOST", "ClickHouse")
                                + ":1 as user 'default': ")
                .doesNotContain("\tat ");
    }

    /**
     * Row 10 deleted (the table rebuilt without it, FINAL), row 20 copied under another _skippr_id,
     * rows 30 and 40 replaced by a later version of themselves (same _skippr_id, higher
     * _skippr_synced_at_us: the ReplacingMergeTree keeps it) with another note and a NULL amount,
     * row 100000 and a pairs row added.
     */
    private void breakDestination() throws Exception {
        String t = "`" + database + "`.`mixed`";
        String copy = "`" + database + "`.`mixed_copy`";
        query("CREATE TABLE " + copy + " AS " + t);
        query("INSERT INTO " + copy + " SELECT * FROM " + t + " FINAL WHERE id != 10");
        query("DROP TABLE " + t);
        query("RENAME TABLE " + copy + " TO " + t);
        Map<String, String> same = new LinkedHashMap<>();
        for (String c : COLUMNS) {
            same.put(c, "`" + c + "`");
        }
        same.put("_skippr_id", "_skippr_id");
        same.put("_skippr_synced_at", "_skippr_synced_at");
        same.put("_skippr_synced_at_us", "_skippr_synced_at_us");
        insertFrom(t, same, Map.of("_skippr_id", "concat(_skippr_id, 'dup')"), "id = 20");
        insertFrom(
                t,
                same,
                Map.of("note", "'changed'", "_skippr_synced_at_us", "_skippr_synced_at_us + 1"),
                "id = 30");
        insertFrom(
                t,
                same,
                Map.of("amount", "NULL", "_skippr_synced_at_us", "_skippr_synced_at_us + 1"),
                "id = 40");
        query(
                "INSERT INTO "
                        + t
                        + " (id, note, _skippr_id, _skippr_synced_at, _skippr_synced_at_us)"
                        + " VALUES (100000, 'extra', 'extra', now(), 1)");
        query(
                "INSERT INTO `"
                        + database
                        + "`.`pairs` (code, u, v, _skippr_id, _skippr_synced_at,"
                        + " _skippr_synced_at_us) SELECT 'zz',"
                        + " toUUID('00000000-0000-0000-0000-000000000000'), 0, 'extra', now(), 1");
    }

    /** A row of {@code t} inserted again with some columns' values replaced. */
    private static void insertFrom(
            String t, Map<String, String> same, Map<String, String> replaced, String where)
            throws Exception {
        String columns =
                same.keySet().stream().map(c -> "`" + c + "`").collect(Collectors.joining(", "));
        String values =
                same.entrySet().stream()
                        .map(e -> replaced.getOrDefault(e.getKey(), e.getValue()))
                        .collect(Collectors.joining(", "));
        query(
                "INSERT INTO "
                        + t
                        + " ("
                        + columns
                        + ") SELECT "
                        + values
                        + " FROM "
                        + t
                        + " FINAL WHERE "
                        + where);
    }
}
