package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestPostgres;
import io.skippr.sinks.bigquery.fake.FakeBigQuery;
import io.skippr.sinks.redshift.TestRedshift;
import io.skippr.sinks.snowflake.TestSnowflake;
import java.io.IOException;
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
 * {@code _skippr_loads}, {@code skipprd history} and {@code skipprd verify --since} after two real
 * {@code sync --once} runs of a table with cursor column {@code id} (rows 1 to 100, then 101 to
 * 150), into PostgreSQL, DuckDB, Redshift (its twin) and Snowflake (the fake Snowflake): history
 * lists the two loads with their exact row counts and the checksums of the ids the destination
 * holds; {@code --since 1} checks only load 2 and passes; with row 120 (in load 2) and row 5 (in
 * load 1) deleted from the destination, {@code --since 1} finds 120 and names load 2, reading only
 * load 2's range (50 source rows, not 160, so row 5 and the 10 rows not synced yet are not in it),
 * and {@code --since 0} finds both and names both loads.
 */
class VerifyLoadsITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private TestPostgres pg;
    private String sinkSchema;
    private String quote = "\""; // how the destination's SQL quotes a column name

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_loads_");
        sinkSchema = pg.schema + "_out";
        pg.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric(12,2), note text)",
                "INSERT INTO orders SELECT g, g * 1.5, 'order ' || g FROM generate_series(1, 100)"
                        + " g");
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.exec("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
        pg.close();
    }

    @Test
    void postgres() throws Exception {
        config(TestPostgres.sinkYaml(sinkSchema));
        check(() -> pg.connect());
    }

    @Test
    void duckDb() throws Exception {
        Path file = dir.resolve("warehouse.duckdb");
        config("    DuckDB:\n      path: " + file + "\n");
        check(
                () -> DriverManager.getConnection("jdbc:duckdb:" + file),
                "main.orders",
                "\"main\".\"_skippr_loads\"",
                "error: the DuckDB database "
                        + file
                        + " does not exist yet; run skipprd sync --pipeline shop --once first\n");
    }

    @Test
    void redshift() throws Exception {
        try (TestRedshift redshift = new TestRedshift()) {
            config(VerifyCli.redshiftSink(redshift, sinkSchema));
            check(
                    () -> {
                        try {
                            return redshift.database().connect();
                        } catch (IOException e) {
                            throw new SQLException(e);
                        }
                    });
        }
    }

    @Test
    void snowflake() throws Exception {
        try (TestSnowflake snowflake = new TestSnowflake()) {
            config(VerifyCli.snowflakeSink(snowflake, sinkSchema));
            check(() -> VerifyCli.snowflake(snowflake));
        }
    }

    @Test
    void bigQuery() throws Exception {
        quote = "`"; // GoogleSQL's "…" is a string
        try (FakeBigQuery fake = FakeBigQuery.start()) {
            config(VerifyCli.bigQuerySink(fake, sinkSchema));
            check(
                    () -> {
                        try {
                            return VerifyCli.bigQuery(fake, sinkSchema);
                        } catch (IOException e) {
                            throw new SQLException(e);
                        }
                    });
        }
    }

    /** A name quoted as the destination's SQL quotes it. */
    private String name(String column) {
        return quote + column + quote;
    }

    private interface Destination {
        Connection connect() throws SQLException;
    }

    /**
     * {@link #check(Destination, String, String, String)} of a sink loading {@code sinkSchema}: its
     * tables' names quoted as the destination quotes them, and its error when it holds no load.
     */
    private void check(Destination destination) throws Exception {
        String loads = name(sinkSchema) + "." + name("_skippr_loads");
        check(
                destination,
                name(sinkSchema) + "." + name("orders"),
                loads,
                "error: data_sinks.warehouse holds no load of pipeline 'shop' in "
                        + loads
                        + ": it records each commit's loads since Skippr records them; run skipprd"
                        + " sync --pipeline shop first\n");
    }

    private void check(Destination destination, String table, String loadsTable, String noLoads)
            throws Exception {
        CliRun none = VerifyCli.run(dir, "history", "--config", config(), "--pipeline", "shop");
        assertThat(none.exitCode()).as(none.all()).isEqualTo(2);
        assertThat(none.err()).isEqualTo(noLoads);

        syncOnce(100);
        pg.exec(
                "INSERT INTO orders SELECT g, g * 1.5, 'order ' || g FROM generate_series(101,"
                        + " 150) g");
        syncOnce(50);
        pg.exec(
                "INSERT INTO orders SELECT g, g * 1.5, 'late ' || g FROM generate_series(151,"
                        + " 160) g");

        long load1;
        long load2;
        try (Connection c = destination.connect();
                Statement s = c.createStatement()) {
            load1 = idChecksum(s, table, 1, 100);
            load2 = idChecksum(s, table, 101, 150);
        }

        // history: newest first, exact counts and the checksums of the ids the destination holds
        CliRun history =
                VerifyCli.run(dir, "history", "--config", config(), "--pipeline", "shop", "--json");
        assertThat(history.exitCode()).as(history.all()).isZero();
        JsonNode loads = JSON.readTree(history.out()).get("loads");
        assertThat(loads.size()).isEqualTo(2);
        assertLoad(loads.get(0), "2", 50, load2, "101", "150");
        assertLoad(loads.get(1), "1", 100, load1, "1", "100");
        String at2 = loads.get(0).get("committed_at").asText();
        String at1 = loads.get(1).get("committed_at").asText();
        assertThat(at2).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
        CliRun text = VerifyCli.run(dir, "history", "--config", config(), "--pipeline", "shop");
        assertThat(text.exitCode()).as(text.all()).isZero();
        assertThat(text.out())
                .isEqualTo(
                        "load  mode  committed (UTC)      stream  rows  checksum          from"
                                + "  to\n"
                                + "2     once  "
                                + at2
                                + "  orders    50  "
                                + hex(load2)
                                + "  101   150\n"
                                + "1     once  "
                                + at1
                                + "  orders   100  "
                                + hex(load1)
                                + "  1     100\n");
        CliRun limited =
                VerifyCli.run(
                        dir,
                        "history",
                        "--config",
                        config(),
                        "--pipeline",
                        "shop",
                        "--stream",
                        "orders",
                        "--limit",
                        "1");
        assertThat(limited.out()).endsWith("1 older loads not shown (--limit)\n");
        assertThat(limited.out().lines().count()).isEqualTo(3);

        // a clean --since: load 2 only, its 50 rows; the 10 rows not synced yet are outside
        CliRun clean = VerifyCli.verify(dir, "shop", "--since", "1");
        assertThat(clean.exitCode()).as(clean.all()).isZero();
        assertThat(clean.out())
                .isEqualTo(
                        "stream  source rows  destination rows  missing  extra  duplicated"
                                + "  different  not yet synced\n"
                                + "orders           50                50        0      0"
                                + "           0          0               0\n"
                                + "orders: 1 load checked (2): all match\n"
                                + "All 1 streams of pipeline shop match.\n");

        long broken2;
        try (Connection c = destination.connect();
                Statement s = c.createStatement()) {
            broken2 = load2 - idChecksum(s, table, 120, 120);
            s.execute("DELETE FROM " + table + " WHERE " + name("id") + " IN (5, 120)");
        }
        CliRun since1 = VerifyCli.verify(dir, "shop", "--since", "1");
        assertThat(since1.exitCode()).as(since1.all()).isEqualTo(1);
        assertThat(since1.out())
                .isEqualTo(
                        "stream  source rows  destination rows  missing  extra  duplicated"
                                + "  different  not yet synced\n"
                                + "orders           50                49        1      0"
                                + "           0          0               0\n"
                                + "orders: missing keys: 120\n"
                                + "orders: 1 load checked (2): 1 differ\n"
                                + "orders: load 2 (once, committed "
                                + at2
                                + " UTC, cursor 101 to 150) differs: the destination holds 49"
                                + " rows in its cursor range, checksum "
                                + hex(broken2)
                                + "; the load committed 50 rows, checksum "
                                + hex(load2)
                                + ", and the source holds 50\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified.\n");

        CliRun since0 = VerifyCli.verify(dir, "shop", "--since", "0", "--json");
        assertThat(since0.exitCode()).as(since0.all()).isEqualTo(1);
        JsonNode stream = JSON.readTree(since0.out()).get("streams").get(0);
        assertThat(stream.get("source_rows").asLong()).isEqualTo(150);
        assertThat(stream.get("destination_rows").asLong()).isEqualTo(148);
        assertThat(stream.get("missing").toString())
                .isEqualTo("{\"count\":2,\"first_keys\":[5,120]}");
        JsonNode checked = stream.get("loads");
        assertThat(checked.size()).isEqualTo(2);
        assertThat(checked.get(0).get("load").asText()).isEqualTo("1");
        assertThat(checked.get(0).get("match").asBoolean()).isFalse();
        assertThat(checked.get(0).get("destination_rows").asLong()).isEqualTo(99);
        assertThat(checked.get(1).get("load").asText()).isEqualTo("2");
        assertThat(checked.get(1).get("match").asBoolean()).isFalse();
        assertThat(checked.get(1).get("source_rows").asLong()).isEqualTo(50);

        CliRun after = VerifyCli.verify(dir, "shop", "--since", "2");
        assertThat(after.exitCode()).as(after.all()).isZero();
        assertThat(after.out()).contains("orders: no load after load 2\n");

        CliRun bad = VerifyCli.verify(dir, "shop", "--since", "two");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err())
                .isEqualTo(
                        "error: --since two is not a load: give a load as skipprd history prints"
                                + " it, RUN (a --once run) or RUN.CHECKPOINT (a continuous run's"
                                + " checkpoint), or 0 for every load\n");
        try (Connection c = destination.connect();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT count(*) FROM "
                                        + loadsTable
                                        + " WHERE "
                                        + name("mode")
                                        + " = 'once'")) {
            rs.next();
            assertThat(rs.getLong(1)).as("one row per stream and run").isEqualTo(2);
        }
    }

    private static void assertLoad(
            JsonNode load, String id, long rows, long checksum, String from, String to) {
        assertThat(load.get("load").asText()).isEqualTo(id);
        assertThat(load.get("mode").asText()).isEqualTo("once");
        assertThat(load.get("stream").asText()).isEqualTo("orders");
        assertThat(load.get("rows").asLong()).isEqualTo(rows);
        assertThat(load.get("checksum").asText()).isEqualTo(hex(checksum));
        assertThat(load.get("from").asText()).isEqualTo(from);
        assertThat(load.get("to").asText()).isEqualTo(to);
    }

    /** The sum of the first 15 hex digits of the ids of rows {@code from} to {@code to}. */
    private long idChecksum(Statement s, String table, long from, long to) throws SQLException {
        long sum = 0;
        try (ResultSet rs =
                s.executeQuery(
                        "SELECT "
                                + name("_skippr_id")
                                + " FROM "
                                + table
                                + " WHERE "
                                + name("id")
                                + " BETWEEN "
                                + from
                                + " AND "
                                + to)) {
            while (rs.next()) {
                sum += Long.parseLong(rs.getString(1).substring(0, 15), 16);
            }
        }
        return sum;
    }

    private static String hex(long checksum) {
        return String.format("%016x", checksum);
    }

    private String config() {
        return dir.resolve("skippr.yml").toString();
    }

    private void config(String sink) throws IOException {
        VerifyCli.shopConfig(dir, pg, "id", sink);
    }

    private void syncOnce(int rows) {
        VerifyCli.syncShop(dir, rows);
    }
}
