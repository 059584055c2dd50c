package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} after a real {@code sync --once} of a table of mixed types, into
 * PostgreSQL and into DuckDB: all equal (exit 0), then a destination broken on purpose (a row
 * deleted, one duplicated, one changed, one value set to NULL, one added) is reported key for key
 * (exit 1), in the table and in {@code --json}; bad inputs exit 2 with exact messages.
 */
class VerifyITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Rows 1 to 3000, so the key ranges are narrowed more than once before rows are fetched. */
    private static final int ROWS = 3000;

    @TempDir Path dir;

    private TestPostgres pg;
    private String sinkSchema;

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_verify_");
        sinkSchema = pg.schema + "_out";
        pg.exec(VerifyCli.mixedTable(ROWS, "5e-324"));
        pg.exec(
                "CREATE TABLE keyless (a int, b text)",
                "CREATE TABLE pairs (a int, b int, PRIMARY KEY (a, b))",
                "CREATE TABLE named (code bytea PRIMARY KEY)");
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.exec("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
        pg.close();
    }

    private Map<String, String> env() {
        Map<String, String> env = new HashMap<>(TestPostgres.passwordEnv());
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        return env;
    }

    private Path config(String sink) throws IOException {
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                "pipelines:\n"
                        + "  mixed:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "  others:\n    data_source: data_sources.others\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("mixed", null)
                        + "  others:\n"
                        + pg.sourceYaml("keyless", null)
                                .replace("['keyless']", "[keyless, pairs, named]")
                        + "data_sinks:\n  warehouse:\n"
                        + sink);
        return config;
    }

    private String postgresSink() {
        return TestPostgres.sinkYaml(sinkSchema);
    }

    private String duckDbSink() {
        return "    DuckDB:\n      path: " + dir.resolve("warehouse.duckdb") + "\n";
    }

    private CliRun verify(String... more) {
        String[] args = new String[more.length + 3];
        args[0] = "verify";
        args[1] = "--config";
        args[2] = dir.resolve("skippr.yml").toString();
        System.arraycopy(more, 0, args, 3, more.length);
        return CliRun.run(dir, env(), args);
    }

    private void syncOnce() {
        CliRun sync =
                CliRun.run(
                        dir,
                        env(),
                        "sync",
                        "--config",
                        dir.resolve("skippr.yml").toString(),
                        "--pipeline",
                        "mixed",
                        "--once");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err()).contains("Pipeline sync complete: 1 streams, 3000 records read");
    }

    @Test
    void aPostgresDestinationIsEqualThenBrokenKeysAreNamed() throws Exception {
        config(postgresSink());
        syncOnce();
        assertEqual();
        try (Connection c = pg.connect();
                Statement s = c.createStatement()) {
            breakDestination("\"" + sinkSchema + "\"", sql -> exec(s, sql));
        }
        assertBroken();
    }

    @Test
    void aDuckDbDestinationIsEqualThenBrokenKeysAreNamed() throws Exception {
        config(duckDbSink());
        syncOnce();
        Path file = dir.resolve("warehouse.duckdb");
        FileTime before = Files.getLastModifiedTime(file);
        long size = Files.size(file);
        assertEqual();
        assertThat(Files.getLastModifiedTime(file)).as("verify writes nothing").isEqualTo(before);
        assertThat(Files.size(file)).isEqualTo(size);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement s = c.createStatement()) {
            breakDestination("main", sql -> exec(s, sql));
        }
        assertBroken();
    }

    private static void exec(Statement s, String sql) {
        try {
            s.execute(sql);
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    private void assertEqual() throws IOException {
        CliRun run = verify("--pipeline", "mixed");
        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out()).isEqualTo(VerifyCli.MIXED_EQUAL);
        assertThat(run.err()).contains("verify: mixed: 3000 source rows, 3000 destination");
        CliRun json = verify("--pipeline", "mixed", "--json");
        assertThat(json.exitCode()).isZero();
        JsonNode doc = JSON.readTree(json.out());
        assertThat(doc.get("match").asBoolean()).isTrue();
        JsonNode stream = doc.get("streams").get(0);
        assertThat(stream.get("source_rows").asLong()).isEqualTo(ROWS);
        assertThat(stream.get("destination_rows").asLong()).isEqualTo(ROWS);
        assertThat(stream.get("different").get("count").asLong()).isZero();
    }

    /**
     * Deletes key 10, duplicates key 20 (the table rebuilt without its primary key first), changes
     * a text of key 30, sets the amount of key 40 to NULL and adds key 100000.
     */
    private static void breakDestination(String schema, Consumer<String> exec) {
        String table = schema + ".mixed";
        exec.accept("CREATE TABLE " + schema + ".copy AS SELECT * FROM " + table);
        exec.accept("DROP TABLE " + table);
        exec.accept("ALTER TABLE " + schema + ".copy RENAME TO mixed");
        exec.accept("DELETE FROM " + table + " WHERE id = 10");
        exec.accept("INSERT INTO " + table + " SELECT * FROM " + table + " WHERE id = 20");
        exec.accept("UPDATE " + table + " SET note = 'changed' WHERE id = 30");
        exec.accept("UPDATE " + table + " SET amount = NULL WHERE id = 40");
        exec.accept("INSERT INTO " + table + " (id, note) VALUES (100000, 'extra')");
    }

    private void assertBroken() throws IOException {
        CliRun run = verify("--pipeline", "mixed");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        assertThat(run.out()).isEqualTo(VerifyCli.MIXED_BROKEN);
        CliRun json = verify("--pipeline", "mixed", "--json", "--stream", "mixed");
        assertThat(json.exitCode()).isEqualTo(1);
        JsonNode stream = JSON.readTree(json.out()).get("streams").get(0);
        assertThat(stream.get("match").asBoolean()).isFalse();
        assertThat(stream.get("destination_rows").asLong()).isEqualTo(ROWS + 1);
        assertThat(stream.get("missing").toString()).isEqualTo("{\"count\":1,\"first_keys\":[10]}");
        assertThat(stream.get("extra").toString())
                .isEqualTo("{\"count\":1,\"first_keys\":[100000]}");
        assertThat(stream.get("duplicated").toString())
                .isEqualTo("{\"count\":1,\"first_keys\":[20]}");
        assertThat(stream.get("different").toString())
                .isEqualTo("{\"count\":2,\"first_keys\":[30,40]}");
    }

    /**
     * In append mode the destination also holds the older versions of updated keys, so it has more
     * rows than the source and still matches (counted as a difference before the fix: exit 1 with
     * no key missing, extra, duplicated or different, as the chaos run found).
     */
    @Test
    void anAppendDestinationHoldingOlderVersionsMatches() throws Exception {
        pg.exec(
                "CREATE TABLE versions (id int PRIMARY KEY, v int NOT NULL, note text)",
                "INSERT INTO versions SELECT i, i, 'n' || i FROM generate_series(1, 500) i");
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                "pipelines:\n  versions:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n    write_mode: append\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("versions", "v")
                        + "data_sinks:\n  warehouse:\n"
                        + postgresSink());
        for (int run = 0; run < 2; run++) {
            CliRun sync =
                    CliRun.run(
                            dir,
                            env(),
                            "sync",
                            "--config",
                            config.toString(),
                            "--pipeline",
                            "versions",
                            "--once");
            assertThat(sync.exitCode()).as(sync.all()).isZero();
            if (run == 0) { // every 10th row gets a newer version, read by the second run
                pg.exec("UPDATE versions SET v = 1000 + id, note = 'u' || id WHERE id % 10 = 0");
            }
        }
        CliRun equal = verify("--pipeline", "versions", "--json");
        assertThat(equal.exitCode()).as(equal.all()).isZero();
        JsonNode stream = JSON.readTree(equal.out()).get("streams").get(0);
        assertThat(stream.get("source_rows").asLong()).isEqualTo(500);
        assertThat(stream.get("destination_rows").asLong()).isEqualTo(550);
        try (Connection c = pg.connect();
                Statement s = c.createStatement()) {
            exec(s, "DELETE FROM \"" + sinkSchema + "\".versions WHERE id = 20 AND v = 1020");
        }
        CliRun broken = verify("--pipeline", "versions", "--json");
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        JsonNode after = JSON.readTree(broken.out()).get("streams").get(0);
        assertThat(after.get("different").toString() + after.get("missing")).contains("[20]");
    }

    @Test
    void tablesWithoutAnOrderableKeyAreReportedNotSkipped() throws IOException {
        config(postgresSink());
        CliRun run = verify("--pipeline", "others");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        String table = "\"" + pg.schema + "\".";
        assertThat(run.out())
                .as(run.err())
                .isEqualTo(
                        "stream   source rows  destination rows  missing  extra  duplicated"
                                + "  different  not yet synced\n"
                                + "keyless            -                 -        -      -"
                                + "           -          -               -\n"
                                + "named              -                 -        -      -"
                                + "           -          -               -\n"
                                + "pairs              0                 0        0      0"
                                + "           0          0               0\n"
                                + "keyless: not verifiable yet: table "
                                + table
                                + "\"keyless\" has no primary key; verify compares tables by their"
                                + " primary key\n"
                                + "named: not verifiable yet: the primary key column \"code\" of"
                                + " table "
                                + table
                                + "\"named\" is bytea (bytes); verify orders keys of integer,"
                                + " numeric, text, uuid, date, time and timestamp types\n"
                                + "pairs: destination table \""
                                + sinkSchema
                                + "\".\"pairs\" does not exist\n"
                                + "Pipeline others: 0 of 3 streams differ, 2 not verified.\n");
    }

    @Test
    void aStreamNeverLoadedIsAllMissing() throws Exception {
        config(postgresSink());
        pg.exec("CREATE SCHEMA \"" + sinkSchema + "\"");
        CliRun run = verify("--pipeline", "mixed", "--json");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        JsonNode stream = JSON.readTree(run.out()).get("streams").get(0);
        assertThat(stream.get("missing").toString())
                .isEqualTo("{\"count\":3000,\"first_keys\":[1,2,3,4,5,6,7,8,9,10]}");
        assertThat(stream.get("note").asText())
                .isEqualTo("destination table \"" + sinkSchema + "\".\"mixed\" does not exist");
    }

    @Test
    void badInputsExit2WithExactMessages() throws IOException {
        config(postgresSink());
        String file = dir.resolve("skippr.yml").toString();
        assertThat(verify("--pipeline", "mixd"))
                .isEqualTo(
                        new CliRun(
                                2,
                                "",
                                "error: "
                                        + file
                                        + ": pipeline 'mixd' is not defined; did you mean"
                                        + " 'mixed'?\n"));
        assertThat(verify("--pipeline", "mixed", "--stream", "nope"))
                .isEqualTo(
                        new CliRun(
                                2,
                                "",
                                "error: pipeline 'mixed' has no stream 'nope'; its streams:"
                                        + " mixed\n"));

        config("    Stdout: {}\n");
        assertThat(verify("--pipeline", "mixed"))
                .isEqualTo(
                        new CliRun(
                                2,
                                "",
                                "error: pipeline 'mixed' loads data_sinks.warehouse (Stdout);"
                                        + " skipprd verify reads Postgres, DuckDB, Redshift,"
                                        + " Snowflake, BigQuery, ClickHouse, LocalFile, S3, GCS,"
                                        + " AzureBlob, SFTP,"
                                        + " SkipprLake and AthenaIceberg data sinks only in this"
                                        + " version\n"));

        config(duckDbSink());
        assertThat(verify("--pipeline", "mixed"))
                .isEqualTo(
                        new CliRun(
                                2,
                                "",
                                "error: the DuckDB database "
                                        + dir.resolve("warehouse.duckdb")
                                        + " does not exist yet; run skipprd sync --pipeline mixed"
                                        + " --once first\n"));

        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  files: {data_source: data_sources.in, data_sink: data_sinks.w}\n"
                        + "data_sources:\n  in:\n    LocalFile: {path: 'in/*.csv'}\n"
                        + "data_sinks:\n  w:\n"
                        + duckDbSink());
        assertThat(verify("--pipeline", "files"))
                .isEqualTo(
                        new CliRun(
                                2,
                                "",
                                "error: pipeline 'files' reads data_sources.in (LocalFile);"
                                        + " skipprd verify compares Postgres data sources only in"
                                        + " this version\n"));

        config(postgresSink());
        Files.writeString(
                dir.resolve("skippr.yml"),
                Files.readString(dir.resolve("skippr.yml"))
                        .replaceFirst(
                                "port: " + TestPostgres.env("SKIPPR_TEST_PG_PORT"), "port: 1"));
        CliRun unreachable = verify("--pipeline", "mixed");
        assertThat(unreachable.exitCode()).isEqualTo(2);
        assertThat(unreachable.out()).isEmpty();
        assertThat(unreachable.err())
                .startsWith(
                        "error: cannot read the data source: Could not connect to PostgreSQL at "
                                + TestPostgres.env("SKIPPR_TEST_PG_HOST")
                                + ":1, database \""
                                + TestPostgres.env("SKIPPR_TEST_PG_DATABASE")
                                + "\", user \""
                                + TestPostgres.env("SKIPPR_TEST_PG_USER")
                                + "\" (sslmode disable): ")
                .doesNotContain("\tat ");
    }

    /**
     * A DuckDB file another process holds for writing (a running sync) cannot be opened read-only:
     * a skipprd process of its own says so and which process holds it, exit 2.
     */
    @Test
    void aDuckDbFileHeldByAnotherProcessIsRefusedWithTheReason() throws Exception {
        config(duckDbSink());
        Path file = dir.resolve("warehouse.duckdb");
        try (Connection held = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement s = held.createStatement()) {
            s.execute("CREATE TABLE held (i int)");
            Process verify =
                    SkipprdProcess.start(
                            dir,
                            "verify",
                            TestPostgres.passwordEnv(),
                            List.of(),
                            "verify",
                            "--pipeline",
                            "mixed");
            assertThat(verify.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String err = Files.readString(dir.resolve("verify.err"));
            assertThat(verify.exitValue()).as(err).isEqualTo(2);
            assertThat(err)
                    .startsWith(
                            "error: cannot read the data sink: DuckDB database file "
                                    + file
                                    + " is locked by another process (")
                    .contains("PID " + ProcessHandle.current().pid())
                    .endsWith(
                            "): verify opens it read-only, which DuckDB refuses while another"
                                    + " process (a running sync) has it open for writing; run"
                                    + " verify between --once runs, or after stopping the"
                                    + " continuous one\n");
            assertThat(Files.readString(dir.resolve("verify.out"))).isEmpty();
        }
    }
}
