package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} by keys that are not integers: a text key (ordered by its bytes whatever
 * the database's collation), a composite key of text, date and uuid, a numeric key, a uuid key and
 * a timestamptz key, after a real {@code sync --once} into PostgreSQL and into DuckDB. All equal
 * (exit 0), then the destination broken on purpose (a row deleted, one duplicated, one changed, one
 * value set to NULL, one added) is reported key for key (exit 1).
 */
class VerifyKeysITCase {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ROWS = 3000;

    @TempDir Path dir;

    private TestPostgres pg;
    private String sinkSchema;

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_verify_keys_");
        sinkSchema = pg.schema + "_out";
        pg.exec(
                "CREATE TABLE coded (code text PRIMARY KEY, note text, amount numeric(10,2))",
                "INSERT INTO coded SELECT (ARRAY['A', 'a', 'é', 'Z', 'b'])[g % 5 + 1] || '-' || g,"
                        + " 'note ' || g, g * 0.5 FROM generate_series(1, "
                        + ROWS
                        + ") g",
                "CREATE TABLE visits (region text, day date, u uuid, g int, at timestamptz,"
                        + " n numeric, PRIMARY KEY (region, day, u))",
                "INSERT INTO visits SELECT (ARRAY['north', 'South', 'east'])[g % 3 + 1],"
                        + " DATE '2024-01-01' + g % 40, md5(g::text)::uuid, g, TIMESTAMPTZ"
                        + " '2024-01-01 00:00:00+00' + g * INTERVAL '1 second', g / 7.0 FROM"
                        + " generate_series(1, "
                        + ROWS
                        + ") g",
                "CREATE TABLE priced (price numeric(10,2) PRIMARY KEY, note text)",
                "INSERT INTO priced SELECT g * 1.25 - 1000, 'p' || g FROM generate_series(1, "
                        + ROWS
                        + ") g",
                "CREATE TABLE tokens (u uuid PRIMARY KEY, v int)",
                "INSERT INTO tokens SELECT md5(g::text)::uuid, g FROM generate_series(1, "
                        + ROWS
                        + ") g",
                "CREATE TABLE moments (at timestamptz PRIMARY KEY, v int)",
                "INSERT INTO moments SELECT TIMESTAMPTZ '2024-01-01 00:00:00.000001+00' + g *"
                        + " INTERVAL '1 hour 0.5 second', g FROM generate_series(1, "
                        + ROWS
                        + ") g");
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.exec("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
        pg.close();
    }

    private void config(String sink) throws IOException {
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  keys:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("coded", null)
                                .replace("['coded']", "[coded, visits, priced, tokens, moments]")
                        + "data_sinks:\n  warehouse:\n"
                        + sink);
    }

    private CliRun verify(String... more) {
        return VerifyCli.verify(dir, "keys", more);
    }

    private void syncOnce() {
        CliRun sync = VerifyCli.syncOnce(dir, "keys");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err()).contains("Pipeline sync complete: 5 streams, 15000 records read");
    }

    @Test
    void aPostgresDestinationByTextAndCompositeKeys() throws Exception {
        config(TestPostgres.sinkYaml(sinkSchema));
        syncOnce();
        assertEqual();
        try (Connection c = pg.connect();
                Statement s = c.createStatement()) {
            breakDestination("\"" + sinkSchema + "\"", s);
        }
        assertBroken();
    }

    @Test
    void aDuckDbDestinationByTextAndCompositeKeys() throws Exception {
        config("    DuckDB:\n      path: " + dir.resolve("warehouse.duckdb") + "\n");
        syncOnce();
        assertEqual();
        try (Connection c =
                        DriverManager.getConnection(
                                "jdbc:duckdb:" + dir.resolve("warehouse.duckdb"));
                Statement s = c.createStatement()) {
            breakDestination("main", s);
        }
        assertBroken();
    }

    /**
     * A numeric key without a precision lands in DuckDB as VARCHAR (its exact text), which orders
     * as text: reported as not verifiable, never compared by a wrong order.
     */
    @Test
    void aDecimalKeyTheDestinationHoldsAsTextIsNotVerifiable() throws Exception {
        pg.exec("CREATE TABLE loose (n numeric PRIMARY KEY)", "INSERT INTO loose VALUES (2), (10)");
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  loose:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("loose", null)
                        + "data_sinks:\n  warehouse:\n    DuckDB:\n      path: "
                        + dir.resolve("warehouse.duckdb")
                        + "\n");
        CliRun sync = VerifyCli.syncOnce(dir, "loose");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        CliRun run = VerifyCli.verify(dir, "loose");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        assertThat(run.out())
                .contains(
                        "loose: not verifiable yet: the primary key column \"n\" of table \""
                                + pg.schema
                                + "\".\"loose\" is numeric, which destination table"
                                + " \"main\".\"loose\" holds as text (VARCHAR): its order there is"
                                + " not the numbers' order\n");
    }

    private void assertEqual() {
        CliRun run = verify();
        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different not yet synced\n"
                                + "coded 3000 3000 0 0 0 0 0\n"
                                + "moments 3000 3000 0 0 0 0 0\n"
                                + "priced 3000 3000 0 0 0 0 0\n"
                                + "tokens 3000 3000 0 0 0 0 0\n"
                                + "visits 3000 3000 0 0 0 0 0\n"
                                + "All 5 streams of pipeline keys match.\n");
    }

    /** The table rebuilt without its primary key, so a row can be duplicated. */
    private static void unkey(String schema, String table, Statement s) throws SQLException {
        String t = schema + "." + table;
        s.execute("CREATE TABLE " + schema + ".copy AS SELECT * FROM " + t);
        s.execute("DROP TABLE " + t);
        s.execute("ALTER TABLE " + schema + ".copy RENAME TO " + table);
    }

    /**
     * coded: deletes a-1, duplicates é-2, changes the note of Z-3, sets the amount of b-4 to NULL,
     * adds zz-extra. visits: the same to the rows of g = 10, 20, 30, 40 and a new key. priced: one
     * note changed; tokens: one row deleted; moments: one row added.
     */
    private static void breakDestination(String schema, Statement s) throws SQLException {
        unkey(schema, "coded", s);
        String coded = schema + ".coded";
        s.execute("DELETE FROM " + coded + " WHERE code = 'a-1'");
        s.execute("INSERT INTO " + coded + " SELECT * FROM " + coded + " WHERE code = 'é-2'");
        s.execute("UPDATE " + coded + " SET note = 'changed' WHERE code = 'Z-3'");
        s.execute("UPDATE " + coded + " SET amount = NULL WHERE code = 'b-4'");
        s.execute("INSERT INTO " + coded + " (code, note) VALUES ('zz-extra', 'x')");
        unkey(schema, "visits", s);
        String visits = schema + ".visits";
        s.execute("DELETE FROM " + visits + " WHERE g = 10");
        s.execute("INSERT INTO " + visits + " SELECT * FROM " + visits + " WHERE g = 20");
        s.execute("UPDATE " + visits + " SET \"at\" = NULL WHERE g = 30");
        s.execute("UPDATE " + visits + " SET n = 0 WHERE g = 40");
        s.execute(
                "INSERT INTO "
                        + visits
                        + " (region, day, u, g) VALUES ('North', DATE '2030-01-01',"
                        + " '00000000-0000-0000-0000-000000000000', 0)");
        s.execute("UPDATE " + schema + ".priced SET note = 'changed' WHERE price = -875");
        s.execute(
                "DELETE FROM "
                        + schema
                        + ".tokens WHERE u = '8f14e45f-ceea-167a-5a36-dedd4bea2543'");
        s.execute(
                "INSERT INTO "
                        + schema
                        + ".moments (\"at\", v) VALUES (TIMESTAMPTZ '2100-01-01 00:00:00+00', 0)");
    }

    /** The visits keys of rows {@code g}, as the source prints them, in byte order. */
    private String visitKeys(String gs) throws SQLException {
        try (Connection c = pg.connect();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT string_agg('(' || region || ', ' || day || ', ' || u ||"
                                        + " ')', ', ' ORDER BY region COLLATE \"C\", day, u) FROM \""
                                        + pg.schema
                                        + "\".visits WHERE g IN ("
                                        + gs
                                        + ")")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private void assertBroken() throws Exception {
        CliRun run = verify();
        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        assertThat(run.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different not yet synced\n"
                                + "coded 3000 3001 1 1 1 2 0\n"
                                + "moments 3000 3001 0 1 0 0 0\n"
                                + "priced 3000 3000 0 0 0 1 0\n"
                                + "tokens 3000 2999 1 0 0 0 0\n"
                                + "visits 3000 3001 1 1 1 2 0\n"
                                + "coded: missing keys: a-1\n"
                                + "coded: extra keys: zz-extra\n"
                                + "coded: duplicated keys: é-2\n"
                                + "coded: different keys: Z-3, b-4\n"
                                + "moments: extra keys: 2100-01-01 00:00:00+00\n"
                                + "priced: different keys: -875.00\n"
                                + "tokens: missing keys: 8f14e45f-ceea-167a-5a36-dedd4bea2543\n"
                                + "visits: missing keys: "
                                + visitKeys("10")
                                + "\nvisits: extra keys: (North, 2030-01-01,"
                                + " 00000000-0000-0000-0000-000000000000)\n"
                                + "visits: duplicated keys: "
                                + visitKeys("20")
                                + "\nvisits: different keys: "
                                + visitKeys("30, 40")
                                + "\nPipeline keys: 5 of 5 streams differ, 0 not verified.\n");
        CliRun json = verify("--json", "--stream", "visits");
        assertThat(json.exitCode()).isEqualTo(1);
        JsonNode stream = JSON.readTree(json.out()).get("streams").get(0);
        assertThat(stream.get("extra").toString())
                .isEqualTo(
                        "{\"count\":1,\"first_keys\":[[\"North\",\"2030-01-01\","
                                + "\"00000000-0000-0000-0000-000000000000\"]]}");
        JsonNode coded =
                JSON.readTree(verify("--json", "--stream", "coded").out()).get("streams").get(0);
        assertThat(coded.get("different").toString())
                .isEqualTo("{\"count\":2,\"first_keys\":[\"Z-3\",\"b-4\"]}");
    }
}
