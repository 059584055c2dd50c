package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
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
    private CdcShop shop;
    private String sinkSchema;
    private String slot;

    @BeforeEach
    void setUp() throws Exception {
        pg = new TestPostgres("skippr_cdccli_");
        pg.exec(
                "CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL,"
                        + " amount numeric(12,2))",
                "INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM generate_series(1, 2000) i");
        shop = new CdcShop(dir, pg);
        sinkSchema = shop.sinkSchema;
        slot = shop.slot;
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            shop.close();
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
                .containsPattern("(?m)^items +1910 +1910 +0 +0 +0 +0 +0$");
        // nothing changed after the committed LSN (VerifyNotSyncedCdcITCase: what did)
        CliRun json = VerifyCli.verify(dir, "shop", "--json");
        assertThat(json.exitCode()).as(json.all()).isZero();
        assertThat(json.out()).contains(",\"not_yet_synced\":{\"count\":0,\"first_keys\":[]}");
    }

    @Test
    void resetDropsSlotAndPublicationAndTheNextOnceLoadsAFreshSnapshot() throws Exception {
        assertThat(VerifyCli.syncOnce(dir, "shop").exitCode()).isZero();
        assertThat(slots()).containsExactly("1");
        // rows the destination lost and changes made while no slot exists: only a new snapshot
        // brings them, the stream of the old slot never would
        pg.exec(String.format("DELETE FROM \"%s\".items WHERE id %% 3 = 0", sinkSchema));
        String records =
                pg.one(String.format("SELECT count(*) FROM \"%s\"._skippr_commits", sinkSchema))
                        .get(0);

        CliRun reset = reset("--yes");

        assertThat(reset.exitCode()).as(reset.err()).isZero();
        assertThat(reset.err())
                .isEqualTo(
                        "cleared the positions of pipeline shop: "
                                + records
                                + (records.equals("1") ? " commit record" : " commit records")
                                + " in \""
                                + sinkSchema
                                + "\".\"_skippr_commits\"\n"
                                + "dropped replication slot "
                                + slot
                                + "\ndropped publication "
                                + slot
                                + "\nPipeline shop is reset: its next run starts with a fresh"
                                + " snapshot.\n");
        assertThat(slots()).containsExactly("0");
        assertThat(pg.one("SELECT count(*) FROM pg_publication WHERE pubname = '" + slot + "'"))
                .containsExactly("0");
        assertThat(positions()).containsExactly("{}");

        pg.exec("UPDATE items SET name = name || '*' WHERE id % 5 = 0");
        CliRun again = VerifyCli.syncOnce(dir, "shop");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(pg.one(String.format("SELECT count(*) FROM \"%s\".items", sinkSchema)))
                .containsExactly("2000");
        assertThat(destination()).isEqualTo(source());
        assertThat(slots()).containsExactly("1"); // the new run's own slot
    }

    @Test
    void resetWithoutATerminalRefusesUnlessYesIsGiven() throws Exception {
        assertThat(VerifyCli.syncOnce(dir, "shop").exitCode()).isZero();

        CliRun reset = reset();

        assertThat(reset.exitCode()).isEqualTo(2);
        assertThat(reset.err())
                .isEqualTo(
                        "error: skipprd reset asks to confirm on a terminal, and there is none:"
                                + " run 'skipprd reset --pipeline shop --yes' to reset without"
                                + " asking. It would drop replication slot "
                                + slot
                                + " and publication "
                                + slot
                                + " on "
                                + server()
                                + "; clear the positions pipeline shop committed in data sink out"
                                + " (Postgres); the rows it loaded stay; move the checkpoints and"
                                + " savepoints of pipeline shop aside (into "
                                + dir.resolve("state").resolve("shop").resolve("superseded")
                                + " or beside their folders)\n");
        assertThat(slots()).containsExactly("1");
        assertThat(positions()).doesNotContain("{}");
    }

    @Test
    void resetRefusesWhileARunReadsTheSlot() throws Exception {
        assertThat(VerifyCli.syncOnce(dir, "shop").exitCode()).isZero();
        try (CdcShop.SlotReader reading = shop.readSlot()) {
            String pid =
                    pg.one(
                                    "SELECT active_pid FROM pg_replication_slots WHERE slot_name"
                                            + " = '"
                                            + slot
                                            + "'")
                            .get(0);

            CliRun reset = reset("--yes");

            assertThat(reset.exitCode()).isEqualTo(1);
            assertThat(reset.err())
                    .isEqualTo(
                            "error: replication slot "
                                    + slot
                                    + " on "
                                    + server()
                                    + " is being read (walsender pid "
                                    + pid
                                    + "): a run of pipeline shop is going on. Stop it first"
                                    + " (Ctrl-C in its 'skipprd sync', or 'skipprd savepoint"
                                    + " --pipeline shop --stop'), then run 'skipprd reset"
                                    + " --pipeline shop' again\n");
        }
        assertThat(slots()).containsExactly("1");
        assertThat(positions()).doesNotContain("{}");
    }

    @Test
    void aSlotNobodyReadsThatKeepsWalIsWarnedOfBeforeTheNextRunAndByVerify() throws Exception {
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                Files.readString(config)
                        .replace(
                                "      publication: ",
                                "      slot_wal_warning_mb: 1\n      publication: "));
        assertThat(VerifyCli.syncOnce(dir, "shop").exitCode()).isZero();
        // about 4 MiB of WAL the slot keeps while no run reads it
        pg.exec(
                "CREATE TABLE wal_filler AS SELECT g, repeat('x', 200) AS pad"
                        + " FROM generate_series(1, 20000) g");
        int version =
                Integer.parseInt(pg.one("SELECT current_setting('server_version_num')").get(0));
        String warning =
                "warning: replication slot "
                        + slot
                        + " is not being read and keeps \\d+\\.\\d MiB of WAL on the"
                        + " server \\(warning above 1\\.0 MiB, slot_wal_warning_mb;"
                        + " PostgreSQL before 17 does not record how long a slot has"
                        + " been inactive\\): keep pipeline shop running \\('skipprd"
                        + " sync --pipeline shop'\\), or, if it is retired, drop the"
                        + " slot with 'skipprd reset --pipeline shop'\n";

        CliRun verify = VerifyCli.verify(dir, "shop");
        CliRun next = VerifyCli.syncOnce(dir, "shop");

        assertThat(verify.exitCode()).as(verify.err()).isZero();
        assertThat(next.exitCode()).as(next.err()).isZero();
        if (version >= 170000) { // the slot's age decides: not read for 60 minutes, no warning
            assertThat(verify.err()).doesNotContain("warning: replication slot");
            assertThat(next.err()).doesNotContain("warning: replication slot");
        } else {
            assertThat(verify.err()).containsPattern(warning);
            assertThat(next.err()).containsPattern(warning);
        }
    }

    private CliRun reset(String... more) {
        String[] args = new String[5 + more.length];
        args[0] = "reset";
        args[1] = "--config";
        args[2] = dir.resolve("skippr.yml").toString();
        args[3] = "--pipeline";
        args[4] = "shop";
        System.arraycopy(more, 0, args, 5, more.length);
        return VerifyCli.run(dir, args);
    }

    private List<String> slots() throws SQLException {
        return shop.slots();
    }

    /** The distinct positions of the pipeline's commit records. */
    private List<String> positions() throws SQLException {
        return pg.one(
                String.format(
                        "SELECT string_agg(DISTINCT positions, ',') FROM \"%s\"._skippr_commits"
                                + " WHERE pipeline = 'shop'",
                        sinkSchema));
    }

    private static String server() {
        return "PostgreSQL at "
                + TestPostgres.env("SKIPPR_TEST_PG_HOST")
                + ":"
                + TestPostgres.env("SKIPPR_TEST_PG_PORT")
                + ", database \""
                + TestPostgres.env("SKIPPR_TEST_PG_DATABASE")
                + "\", user \""
                + TestPostgres.env("SKIPPR_TEST_PG_USER")
                + "\" (sslmode disable)";
    }

    private String source() throws SQLException {
        return pg.one(String.format(ROWS, pg.schema)).get(0);
    }

    private String destination() throws SQLException {
        return pg.one(String.format(ROWS, sinkSchema)).get(0);
    }
}
