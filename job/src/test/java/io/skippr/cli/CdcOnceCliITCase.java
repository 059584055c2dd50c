package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Change data capture through the CLI as a user runs it: {@code skipprd sync --once} twice with
 * inserts, updates and deletes in between applies exactly those changes (the destination equals the
 * source by md5 per key after each run), and {@code skipprd verify} agrees.
 */
class CdcOnceCliITCase {
    /** Each key's row as text, in key order: what "equal by md5 per key" compares. */
    private static final String ROWS =
            "SELECT string_agg(id || ':' || md5(concat_ws('|', name, amount)), ',' ORDER BY id)"
                    + " FROM \"%s\".items";

    @TempDir Path dir;

    private TestPostgres pg;
    private String sinkSchema;
    private String slot;

    @BeforeEach
    void setUp() throws Exception {
        pg = new TestPostgres("skippr_cdccli_");
        sinkSchema = pg.schema + "_out";
        slot = "skippr_cli_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        pg.exec(
                "CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL,"
                        + " amount numeric(12,2))",
                "INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM generate_series(1, 2000) i");
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  shop:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.out\n    write_mode: merge\n"
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("items", null)
                        + "      replication_method: cdc\n      slot_name: "
                        + slot
                        + "\n      publication: "
                        + slot
                        + "\ndata_sinks:\n  out:\n"
                        + TestPostgres.sinkYaml(sinkSchema));
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            // the run's walsender may outlive its process for a moment: WAIT until it lets go
            try (Connection c = pg.connect();
                    Statement st = c.createStatement()) {
                if (!pg.one(
                                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"
                                        + slot
                                        + "'")
                        .equals(List.of("0"))) {
                    try (Connection r = TestPostgres.replicationConnection();
                            Statement rs = r.createStatement()) {
                        rs.execute("DROP_REPLICATION_SLOT \"" + slot + "\" WAIT");
                    }
                }
                st.execute("DROP PUBLICATION IF EXISTS \"" + slot + "\"");
                st.execute("DROP SCHEMA IF EXISTS \"" + sinkSchema + "\" CASCADE");
            }
        } finally {
            pg.close();
        }
    }

    @Test
    void onceTwiceWithChangesBetweenAppliesExactlyThoseAndVerifyAgrees() throws Exception {
        CliRun first = VerifyCli.syncOnce(dir, "shop");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(destination()).isEqualTo(source());

        pg.exec(
                "INSERT INTO items SELECT i, 'new ' || i, i FROM generate_series(2001, 2100) i",
                "UPDATE items SET amount = amount + 1, name = name || '+' WHERE id % 7 = 0",
                "DELETE FROM items WHERE id % 11 = 0");
        CliRun second = VerifyCli.syncOnce(dir, "shop");
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(pg.one("SELECT count(*) FROM items")).containsExactly("1910");
        assertThat(destination()).isEqualTo(source());

        CliRun verify = VerifyCli.verify(dir, "shop");
        assertThat(verify.exitCode()).as(verify.out() + verify.err()).isZero();
        assertThat(verify.out())
                .contains("All 1 streams of pipeline shop match.")
                .containsPattern("(?m)^items +1910 +1910 +0 +0 +0 +0$");
    }

    private String source() throws SQLException {
        return pg.one(String.format(ROWS, pg.schema)).get(0);
    }

    private String destination() throws SQLException {
        return pg.one(String.format(ROWS, sinkSchema)).get(0);
    }
}
