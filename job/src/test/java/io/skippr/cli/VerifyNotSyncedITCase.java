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
 * The "not yet synced" column of a full {@code skipprd verify}: a table with cursor column {@code
 * updated_at} synced with {@code --once} (rows 1 to 100, {@code updated_at = id}), then rows 101 to
 * 103 inserted and rows 5 and 7 updated past the committed position (100) without a sync. Verify
 * exits 0 and names exactly 5, 7, 101, 102, 103 as not yet synced (5 and 7's destination rows are
 * their older versions: not different). Row 10 deleted from the destination is still missing (exit
 * 1); after a second {@code --once} run nothing is left unsynced and 10 is still missing. Into
 * PostgreSQL and DuckDB (positions read from the marker table, in the destination's snapshot), and
 * into a LocalFile sink (positions from its commit log, through the sink's factory).
 */
class VerifyNotSyncedITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String HEADER =
            "stream  source rows  destination rows  missing  extra  duplicated  different"
                    + "  not yet synced\n";

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
        config("    LocalFile:\n      path: " + dir.resolve("files") + "\n");
        syncOnce(100);
        changeSource();
        assertUnsynced();
    }

    private interface Destination {
        Connection connect() throws SQLException;
    }

    private void check(Destination destination, String table) throws Exception {
        syncOnce(100);
        try (Connection c = destination.connect();
                Statement s = c.createStatement()) {
            assertThat(checksum(s, table)).isEqualTo(String.join(" ", pg.one(CHECKSUM + "orders")));
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
                        HEADER
                                + "orders          103                99        1      0"
                                + "           0          0               5\n"
                                + "orders: missing keys: 10\n"
                                + "orders: not yet synced keys: 5, 7, 101, 102, 103\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified; 5 rows"
                                + " not yet synced.\n");

        syncOnce(5);
        CliRun synced = VerifyCli.verify(dir, "shop");
        assertThat(synced.exitCode()).as(synced.all()).isEqualTo(1);
        assertThat(synced.out())
                .isEqualTo(
                        HEADER
                                + "orders          103               102        1      0"
                                + "           0          0               0\n"
                                + "orders: missing keys: 10\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified.\n");
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
                        HEADER
                                + "orders          103               100        0      0"
                                + "           0          0               5\n"
                                + "orders: not yet synced keys: 5, 7, 101, 102, 103\n"
                                + "All 1 streams of pipeline shop match; 5 rows not yet synced.\n");
        assertThat(run.err())
                .contains(
                        "verify: orders: synced up to \"updated_at\" 100 (the committed position);"
                                + " source rows above it are not synced yet\n");
        CliRun json = VerifyCli.verify(dir, "shop", "--json");
        assertThat(json.exitCode()).as(json.all()).isZero();
        JsonNode doc = JSON.readTree(json.out());
        assertThat(doc.get("match").asBoolean()).isTrue();
        JsonNode stream = doc.get("streams").get(0);
        assertThat(stream.get("not_yet_synced").toString())
                .isEqualTo("{\"count\":5,\"first_keys\":[5,7,101,102,103]}");
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
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n"
                        + "  shop:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("orders", "updated_at")
                        + "data_sinks:\n  warehouse:\n"
                        + sink);
    }

    private void syncOnce(int rows) {
        CliRun sync = VerifyCli.syncOnce(dir, "shop");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err())
                .contains("Pipeline sync complete: 1 streams, " + rows + " records read");
    }
}
