package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestPostgres;
import io.skippr.sinks.bigquery.fake.FakeBigQuery;
import io.skippr.sinks.redshift.TestRedshift;
import io.skippr.sinks.snowflake.TestSnowflake;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} of the warehouse data sinks after a real {@code sync --once}: every type
 * of {@link VerifyCli#mixedTable} (300 rows) and a composite text and uuid key (1,500 rows, so a
 * difference is narrowed down through key ranges) equal in the warehouse's own SQL (exit 0, exact
 * counts); then the destination broken through the sink's own connection (a row deleted, one
 * duplicated, one value changed, one set to NULL, one row added) and exactly those keys named, exit
 * 1. Redshift runs against its twin ({@code RedshiftTwin}), which runs verify's Redshift functions
 * (STRTOL, DATEDIFF, FROM_VARBYTE) as PostgreSQL expressions; Snowflake against the fake Snowflake
 * ({@code FakeSnowflake}), whose {@code SnowflakeFunctions} run verify's Snowflake functions
 * (TO_NUMBER with a hex format, DATEDIFF, DATE_PART, HEX_ENCODE, TO_VARCHAR of a FLOAT); after the
 * Snowflake run, history lists its load.
 */
class VerifyWarehousesITCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROWS = 300;

    /** Over verify's 1,000-row leaf ranges: a difference here is cut into parts (row_number). */
    private static final int PAIRS = 1500;

    @TempDir Path dir;

    private TestPostgres pg;

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_verify_wh_");
        // the smallest normal double: Redshift's DOUBLE PRECISION holds no subnormal
        pg.exec(VerifyCli.mixedTable(ROWS, "2.2250738585072014e-308"));
        pg.exec(
                "CREATE TABLE pairs (code text, u uuid, v int, PRIMARY KEY (code, u))",
                "INSERT INTO pairs SELECT (ARRAY['A', 'a', 'é', 'Z', 'b'])[g % 5 + 1],"
                        + " md5(g::text)::uuid, g FROM generate_series(1, "
                        + PAIRS
                        + ") g");
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.close();
    }

    @Test
    void redshift() throws Exception {
        String schema = pg.schema + "_rs";
        try (TestRedshift redshift = new TestRedshift()) {
            config(VerifyCli.redshiftSink(redshift, schema));
            syncAndCompareClean();
            try (Connection c = redshift.database().connect()) {
                breakOnPurpose(c, schema, "\"", "SYSDATE");
            }
            compareBroken();

            String config = Files.readString(dir.resolve("skippr.yml"));
            Files.writeString(
                    dir.resolve("skippr.yml"),
                    config.replace("port: " + redshift.twin.port(), "port: 1"));
            CliRun unreachable = verify();
            assertThat(unreachable.exitCode()).as(unreachable.all()).isEqualTo(2);
            assertThat(unreachable.out()).isEmpty();
            assertThat(unreachable.err())
                    .isEqualTo(
                            "error: cannot read the data sink: cannot connect: Connection to"
                                    + " 127.0.0.1:1 refused. Check that the hostname and port are"
                                    + " correct and that the postmaster is accepting TCP/IP"
                                    + " connections. — while connecting on Redshift at 127.0.0.1:1,"
                                    + " database \""
                                    + TestRedshift.env("SKIPPR_TEST_PG_DATABASE")
                                    + "\", user \""
                                    + TestRedshift.env("SKIPPR_TEST_PG_USER")
                                    + "\" (staging in s3://"
                                    + redshift.bucket
                                    + "/)\n");
        } finally {
            pg.exec("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
    }

    @Test
    void snowflake() throws Exception {
        String schema = pg.schema + "_sf";
        try (TestSnowflake snowflake = new TestSnowflake()) {
            config(VerifyCli.snowflakeSink(snowflake, schema));
            syncAndCompareClean();
            try (Connection c = VerifyCli.snowflake(snowflake)) {
                breakOnPurpose(c, schema, "\"", "CURRENT_TIMESTAMP");
            }
            compareBroken();

            CliRun history =
                    VerifyCli.run(dir, "history", "--config", config(), "--pipeline", "wh");
            assertThat(history.exitCode()).as(history.all()).isZero();
            assertThat(history.out().lines().toList())
                    .hasSize(3)
                    .element(1)
                    .asString()
                    .matches("1 +once +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +mixed +300 .*");

            String config = Files.readString(dir.resolve("skippr.yml"));
            Files.writeString(
                    dir.resolve("skippr.yml"),
                    config.replace(snowflake.endpoint(), "http://127.0.0.1:1"));
            CliRun unreachable = verify();
            assertThat(unreachable.exitCode()).as(unreachable.all()).isEqualTo(2);
            assertThat(unreachable.out()).isEmpty();
            assertThat(unreachable.err())
                    .isEqualTo(
                            "error: cannot read the data sink: JDBC driver encountered"
                                    + " communication error. Message: Exception encountered for"
                                    + " HTTP request: Connect to 127.0.0.1:1 [/127.0.0.1] failed:"
                                    + " Connection refused. (SQL state 58030) — while connecting on"
                                    + " Snowflake account FAKE at http://127.0.0.1:1, database"
                                    + " SKIPPR_TEST, user skippr_loader (staging in @\""
                                    + schema
                                    + "\".\"_skippr_stage\")\n");
        }
    }

    private String config() {
        return dir.resolve("skippr.yml").toString();
    }

    @Test
    void bigQuery() throws Exception {
        String dataset = pg.schema + "_bq";
        try (FakeBigQuery fake = FakeBigQuery.start()) {
            config(VerifyCli.bigQuerySink(fake, dataset));
            syncAndCompareClean();
            try (Connection c = VerifyCli.bigQuery(fake, dataset)) {
                breakOnPurpose(c, dataset, "`", "CURRENT_TIMESTAMP()");
            }
            compareBroken();

            // history lists the run: one load per stream, their exact row counts
            CliRun history =
                    VerifyCli.run(
                            dir,
                            "history",
                            "--config",
                            dir.resolve("skippr.yml").toString(),
                            "--pipeline",
                            "wh",
                            "--json");
            assertThat(history.exitCode()).as(history.all()).isZero();
            JsonNode loads = JSON.readTree(history.out()).get("loads");
            assertThat(loads.size()).isEqualTo(2);
            assertThat(loads.get(0).get("load").asText()).isEqualTo("1");
            assertThat(loads.get(0).get("stream").asText()).isEqualTo("mixed");
            assertThat(loads.get(0).get("rows").asLong()).isEqualTo(ROWS);
            assertThat(loads.get(1).get("stream").asText()).isEqualTo("pairs");
            assertThat(loads.get(1).get("rows").asLong()).isEqualTo(PAIRS);
        }
    }

    /**
     * Breaks the destination through its own connection, as {@link #compareBroken} expects: key 10
     * deleted, 20 duplicated, 30 changed, 40's amount set to NULL, an extra key in each table.
     */
    private static void breakOnPurpose(Connection c, String schema, String quote, String now)
            throws SQLException {
        java.util.function.UnaryOperator<String> q = name -> quote + name + quote;
        String mixed = q.apply(schema) + "." + q.apply("mixed");
        String meta = q.apply("_skippr_id") + ", " + q.apply("_skippr_synced_at");
        try (Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + mixed + " WHERE " + q.apply("id") + " = 10");
            s.execute(
                    "INSERT INTO "
                            + mixed
                            + " SELECT * FROM "
                            + mixed
                            + " WHERE "
                            + q.apply("id")
                            + " = 20");
            s.execute(
                    "UPDATE "
                            + mixed
                            + " SET "
                            + q.apply("note")
                            + " = 'changed' WHERE "
                            + q.apply("id")
                            + " = 30");
            s.execute(
                    "UPDATE "
                            + mixed
                            + " SET "
                            + q.apply("amount")
                            + " = NULL WHERE "
                            + q.apply("id")
                            + " = 40");
            s.execute(
                    "INSERT INTO "
                            + mixed
                            + " ("
                            + q.apply("id")
                            + ", "
                            + q.apply("note")
                            + ", "
                            + meta
                            + ") VALUES (100000, 'extra', 'extra', "
                            + now
                            + ")");
            s.execute(
                    "INSERT INTO "
                            + q.apply(schema)
                            + "."
                            + q.apply("pairs")
                            + " ("
                            + q.apply("code")
                            + ", "
                            + q.apply("u")
                            + ", "
                            + q.apply("v")
                            + ", "
                            + meta
                            + ") VALUES ('zz', '00000000-0000-0000-0000-000000000000', 0, 'extra', "
                            + now
                            + ")");
        }
    }

    private void config(String sink) throws Exception {
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  wh:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("mixed", null).replace("['mixed']", "[mixed, pairs]")
                        + "data_sinks:\n  warehouse:\n"
                        + sink);
    }

    private CliRun verify(String... more) {
        return VerifyCli.verify(dir, "wh", more);
    }

    private void syncAndCompareClean() {
        CliRun sync = VerifyCli.syncOnce(dir, "wh");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err())
                .contains("Pipeline sync complete: 2 streams, " + (ROWS + PAIRS) + " records read");
        CliRun clean = verify();
        assertThat(clean.exitCode()).as(clean.all()).isZero();
        assertThat(clean.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different"
                                + " not yet synced\n"
                                + "mixed 300 300 0 0 0 0 0\n"
                                + "pairs 1500 1500 0 0 0 0 0\n"
                                + "All 2 streams of pipeline wh match.\n");
    }

    private void compareBroken() throws Exception {
        CliRun broken = verify();
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different"
                                + " not yet synced\n"
                                + "mixed 300 301 1 1 1 2 0\n"
                                + "pairs 1500 1501 0 1 0 0 0\n"
                                + "mixed: missing keys: 10\n"
                                + "mixed: extra keys: 100000\n"
                                + "mixed: duplicated keys: 20\n"
                                + "mixed: different keys: 30, 40\n"
                                + "pairs: extra keys: (zz, 00000000-0000-0000-0000-000000000000)\n"
                                + "Pipeline wh: 2 of 2 streams differ, 0 not verified.\n");
        JsonNode stream =
                JSON.readTree(verify("--json", "--stream", "mixed").out()).get("streams").get(0);
        assertThat(stream.get("different").toString())
                .isEqualTo("{\"count\":2,\"first_keys\":[30,40]}");
    }
}
