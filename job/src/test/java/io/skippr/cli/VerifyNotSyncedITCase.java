package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestPostgres;
import io.skippr.sinks.redshift.TestRedshift;
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
 * The "not yet synced" column of a full {@code skipprd verify}: a table with cursor column {@code
 * updated_at} synced with {@code --once} (rows 1 to 100, {@code updated_at = id}), then rows 101 to
 * 103 inserted and rows 5 and 7 updated past the committed position (100) without a sync; row 104
 * (cursor value 50) was inserted by a transaction in progress during the first run's read, which
 * the position leaves to the next run. Verify exits 0 and names exactly 5, 7, 101, 102, 103, 104 as
 * not yet synced (5 and 7's destination rows are their older versions: not different). Row 10
 * deleted from the destination is still missing (exit 1); after a second {@code --once} run (6
 * rows) nothing is left unsynced and 10 is still missing. Into PostgreSQL and DuckDB (positions
 * read from the marker table, in the destination's snapshot), and into a LocalFile sink (positions
 * from its commit log, through the sink's factory).
 */
class VerifyNotSyncedITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private TestPostgres pg;
    private String sinkSchema;

    @BeforeEach
    void setUp() throws SQLException {
        pg = new TestPostgres("skippr_unsynced_");
        sinkSchema = pg.schema + "_out";
        pg.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, updated_at bigint, note text)",
                "INSERT INTO orders SELECT g, g, 'order ' || g FROM generate_series(1, 100) g");
    }

    @AfterEach
    void tearDown() throws SQLException {
        pg.exec("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
        pg.close();
    }

    @Test
    void postgres() throws Exception {
        config(TestPostgres.sinkYaml(sinkSchema));
        check(() -> pg.connect(), "\"" + sinkSchema + "\".\"orders\"");
    }

    @Test
    void duckDb() throws Exception {
        Path file = dir.resolve("warehouse.duckdb");
        config("    DuckDB:\n      path: " + file + "\n");
        check(() -> DriverManager.getConnection("jdbc:duckdb:" + file), "main.orders");
    }

    @Test
    void localFile() throws Exception {
        checkPending("    LocalFile:\n      path: " + dir.resolve("files") + "\n");
    }

    /** An Iceberg destination. */
    @Test
    void skipprLake() throws Exception {
        checkPending("    SkipprLake:\n      warehouse: '" + dir.resolve("lake") + "'\n");
    }

    /**
     * Redshift (its twin): the position read from its marker table in verify's transaction, as for
     * PostgreSQL; the rows compared in Redshift's SQL.
     */
    @Test
    void redshift() throws Exception {
        try (TestRedshift redshift = new TestRedshift()) {
            checkPending(VerifyCli.redshiftSink(redshift, sinkSchema));
        }
    }

    /**
     * A sink {@code sinkYaml} whose position verify reads through the sink's positions reader or
     * its marker table, and whose rows this test does not read itself.
     */
    private void checkPending(String sinkYaml) throws Exception {
        config(sinkYaml);
        syncAroundOpenTransaction();
        changeSource();
        assertUnsynced();
    }

    private interface Destination {
        Connection connect() throws SQLException;
    }

    private void check(Destination destination, String table) throws Exception {
        syncAroundOpenTransaction();
        try (Connection c = destination.connect();
                Statement s = c.createStatement()) {
            assertThat(checksum(s, table))
                    .isEqualTo(String.join(" ", pg.one(CHECKSUM + "orders WHERE id <= 100")));
        }
        changeSource();
        assertUnsynced();

        try (Connection c = destination.connect();
                Statement s = c.createStatement()) {
            s.execute("DELETE FROM " + table + " WHERE id = 10");
        }
        CliRun lost = VerifyCli.verify(dir, "shop");
        assertThat(lost.exitCode()).as(lost.all()).isEqualTo(1);
        assertThat(lost.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "orders          104                99        1      0"
                                + "           0          0               6\n"
                                + "orders: missing keys: 10\n"
                                + "orders: not yet synced keys: 5, 7, 101, 102, 103, 104\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified; 6 rows"
                                + " not yet synced.\n");

        syncOnce(6); // 104 as a late commit of the first run's read, and the 5 rows above 100
        CliRun synced = VerifyCli.verify(dir, "shop");
        assertThat(synced.exitCode()).as(synced.all()).isEqualTo(1);
        assertThat(synced.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "orders          104               103        1      0"
                                + "           0          0               0\n"
                                + "orders: missing keys: 10\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified.\n");
    }

    /**
     * The first {@code --once} run, reading rows 1 to 100 while a transaction that inserts row 104
     * (cursor value 50, below the run's top) is in progress: the run cannot see it, its position
     * names the transaction, and the next run reads its rows.
     */
    private void syncAroundOpenTransaction() throws SQLException {
        try (Connection open = pg.connect();
                Statement s = open.createStatement()) {
            open.setAutoCommit(false);
            s.execute(
                    "INSERT INTO \""
                            + pg.schema
                            + "\".orders VALUES (104, 50, 'committed after the read')");
            syncOnce(100);
            open.commit();
        }
    }

    /** Rows 101 to 103 inserted, 5 and 7 updated, all with cursor values above 100. */
    private void changeSource() throws SQLException {
        pg.exec(
                "INSERT INTO orders SELECT g, 100 + g, 'late ' || g FROM generate_series(101, 103)"
                        + " g",
                "UPDATE orders SET updated_at = 300, note = 'changed' WHERE id IN (5, 7)");
    }

    private void assertUnsynced() throws Exception {
        CliRun run = VerifyCli.verify(dir, "shop");
        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "orders          104               100        0      0"
                                + "           0          0               6\n"
                                + "orders: not yet synced keys: 5, 7, 101, 102, 103, 104\n"
                                + "All 1 streams of pipeline shop match; 6 rows not yet synced.\n");
        assertThat(run.err())
                .contains(
                        "verify: orders: synced up to \"updated_at\" 100 (the committed position);"
                                + " source rows above it, and those of reads it leaves to the next"
                                + " run, are not synced yet\n");
        CliRun json = VerifyCli.verify(dir, "shop", "--json");
        assertThat(json.exitCode()).as(json.all()).isZero();
        JsonNode doc = JSON.readTree(json.out());
        assertThat(doc.get("match").asBoolean()).isTrue();
        JsonNode stream = doc.get("streams").get(0);
        assertThat(stream.get("not_yet_synced").toString())
                .isEqualTo("{\"count\":6,\"first_keys\":[5,7,101,102,103,104]}");
        assertThat(stream.get("missing").get("count").asLong()).isZero();
        assertThat(stream.get("different").get("count").asLong()).isZero();
    }

    /** The rows' count and the md5 of their values in key order, the same SQL on both sides. */
    private static final String CHECKSUM =
            "SELECT count(*), md5(string_agg(CAST(id AS VARCHAR) || '|' || CAST(updated_at AS"
                    + " VARCHAR) || '|' || note, ',' ORDER BY id)) FROM ";

    private static String checksum(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery(CHECKSUM + table)) {
            rs.next();
            return rs.getLong(1) + " " + rs.getString(2);
        }
    }

    private void config(String sink) throws IOException {
        VerifyCli.shopConfig(dir, pg, "updated_at", sink);
    }

    private void syncOnce(int rows) {
        VerifyCli.syncShop(dir, rows);
    }
}
