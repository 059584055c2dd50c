package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The "not yet synced" column of {@code skipprd verify} for a change-data-capture stream: items 1
 * to 100 synced by a {@code --once} run, then 101 and 102 inserted, 5 and 7 updated, 9 and 11
 * deleted and 20's key changed to 150 in the source without a sync. Verify exits 0 and names
 * exactly 5, 7, 9, 11, 20, 101, 102, 150 as not yet synced (the changes after the committed LSN,
 * read from a temporary copy of the slot, also while a replication stream holds the slot), and
 * leaves the pipeline's slot where it was, with no slot of its own behind. A destination row
 * damaged at an unchanged key (50) is different, exit 1, naming only it. A login without
 * REPLICATION, and a TRUNCATE since, leave the column unknown with a warning.
 */
class VerifyNotSyncedCdcITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    private TestPostgres pg;
    private CdcShop shop;

    @BeforeEach
    void setUp() throws Exception {
        pg = new TestPostgres("skippr_cdcverify_");
        pg.exec(
                "CREATE TABLE items (id bigint PRIMARY KEY, name text NOT NULL,"
                        + " amount numeric(12,2))",
                "INSERT INTO items SELECT i, 'item ' || i, i * 1.5 FROM generate_series(1, 100) i");
        shop = new CdcShop(dir, pg);
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
    void changesAfterTheCommittedLsnAreNotYetSyncedAndTheSlotStaysWhereItWas() throws Exception {
        CliRun first = VerifyCli.syncOnce(dir, "shop");
        assertThat(first.exitCode()).as(first.all()).isZero();
        CliRun synced = VerifyCli.verify(dir, "shop");
        assertThat(synced.exitCode()).as(synced.all()).isZero();
        assertThat(synced.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "items           100               100        0      0"
                                + "           0          0               0\n"
                                + "All 1 streams of pipeline shop match.\n");

        pg.exec(
                "INSERT INTO items VALUES (101, 'new 101', 1), (102, 'new 102', 2)",
                "UPDATE items SET name = 'changed' WHERE id IN (5, 7)",
                "DELETE FROM items WHERE id IN (9, 11)",
                "UPDATE items SET id = 150 WHERE id = 20"); // both keys: 20 gone, 150 new
        List<String> slot = shop.slotPositions();

        CliRun run = VerifyCli.verify(dir, "shop");
        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "items           100               100        0      0"
                                + "           0          0               8\n"
                                + "items: not yet synced keys: 5, 7, 9, 11, 20, 101, 102, 150\n"
                                + "All 1 streams of pipeline shop match; 8 rows not yet synced.\n");
        assertThat(run.err())
                .containsPattern(
                        "verify: items: synced up to LSN [0-9A-F]+/[0-9A-F]+ of replication slot "
                                + shop.slot
                                + " \\(the committed position\\); 8 keys changed after it are not"
                                + " synced yet\n");
        CliRun json;
        try (CdcShop.SlotReader running = shop.readSlot()) { // the slot in use, as by a sync
            assertThat(
                            pg.one(
                                    "SELECT active FROM pg_replication_slots WHERE slot_name = '"
                                            + shop.slot
                                            + "'"))
                    .containsExactly("t");
            json = VerifyCli.verify(dir, "shop", "--json");
        }
        assertThat(json.exitCode()).as(json.all()).isZero();
        JsonNode stream = JSON.readTree(json.out()).get("streams").get(0);
        assertThat(stream.get("not_yet_synced").toString())
                .isEqualTo("{\"count\":8,\"first_keys\":[5,7,9,11,20,101,102,150]}");
        assertThat(stream.get("extra").get("count").asLong()).isZero();

        // verify read the slot through a temporary copy: the slot did not move, no copy is left
        assertThat(shop.slotPositions()).isEqualTo(slot);
        assertThat(
                        pg.one(
                                "SELECT count(*) FROM pg_replication_slots WHERE slot_name LIKE 'skippr\\_verify\\_%'"))
                .containsExactly("0");

        pg.exec(
                String.format(
                        "UPDATE \"%s\".items SET name = 'damaged' WHERE id = 50", shop.sinkSchema));
        CliRun damaged = VerifyCli.verify(dir, "shop");
        assertThat(damaged.exitCode()).as(damaged.all()).isEqualTo(1);
        assertThat(damaged.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "items           100               100        0      0"
                                + "           0          1               8\n"
                                + "items: different keys: 50\n"
                                + "items: not yet synced keys: 5, 7, 9, 11, 20, 101, 102, 150\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified; 8 rows"
                                + " not yet synced.\n");

        // the next sync applies those changes: the key changed from 20 to 150 leaves no row of 20
        CliRun second = VerifyCli.syncOnce(dir, "shop");
        assertThat(second.exitCode()).as(second.all()).isZero();
        CliRun after = VerifyCli.verify(dir, "shop");
        assertThat(after.exitCode()).as(after.all()).isEqualTo(1);
        assertThat(after.out())
                .isEqualTo(
                        VerifyCli.HEADER
                                + "items           100               100        0      0"
                                + "           0          1               0\n"
                                + "items: different keys: 50\n"
                                + "Pipeline shop: 1 of 1 streams differ, 0 not verified.\n");
    }

    /**
     * A source login without the REPLICATION attribute cannot copy the slot: the column is {@code
     * unknown} as before, a warning says why, and the changes since count as missing, different and
     * extra (exit 1).
     */
    @Test
    void aLoginThatMayNotUseTheSlotLeavesTheColumnUnknownWithAWarning() throws Exception {
        CliRun first = VerifyCli.syncOnce(dir, "shop");
        assertThat(first.exitCode()).as(first.all()).isZero();
        pg.exec(
                "INSERT INTO items VALUES (101, 'new 101', 1)",
                "UPDATE items SET name = 'changed' WHERE id = 5",
                "DELETE FROM items WHERE id = 9");
        List<String> slot = shop.slotPositions();
        String role = pg.schema + "_reader";
        pg.exec(
                "CREATE ROLE \"" + role + "\" LOGIN PASSWORD 'reader-pw'",
                "GRANT USAGE ON SCHEMA \"" + pg.schema + "\" TO \"" + role + "\"",
                "GRANT SELECT ON items TO \"" + role + "\"");
        try {
            Path config = dir.resolve("skippr.yml");
            String source = "user: " + TestPostgres.env("SKIPPR_TEST_PG_USER") + "\n";
            // the data source's entry comes first: only it logs in as the reader
            Files.writeString(
                    config,
                    Files.readString(config)
                            .replaceFirst(
                                    Pattern.quote(source + "      password: ${PG_PASSWORD}"),
                                    Matcher.quoteReplacement(
                                            "user: "
                                                    + role
                                                    + "\n      password: ${SRC_PASSWORD}")));
            Map<String, String> env = new HashMap<>(VerifyCli.env(dir));
            env.put("SRC_PASSWORD", "reader-pw");

            CliRun run =
                    CliRun.run(
                            dir,
                            env,
                            "verify",
                            "--config",
                            config.toString(),
                            "--pipeline",
                            "shop");

            assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
            assertThat(run.out())
                    .isEqualTo(
                            VerifyCli.HEADER
                                    + "items           100               100        1      1"
                                    + "           0          1         unknown\n"
                                    + "items: missing keys: 101\n"
                                    + "items: extra keys: 9\n"
                                    + "items: different keys: 5\n"
                                    + "Pipeline shop: 1 of 1 streams differ, 0 not verified.\n");
            assertThat(run.err())
                    .contains(
                            "warning: cannot read the changes of replication slot "
                                    + shop.slot
                                    + " after the committed position (")
                    .contains(
                            "): which rows are not synced yet is unknown, and changes made since"
                                    + " the last run count as missing, extra or different\n");
            assertThat(shop.slotPositions()).isEqualTo(slot);
        } finally {
            pg.exec(
                    "REVOKE ALL ON items FROM \"" + role + "\"",
                    "REVOKE ALL ON SCHEMA \"" + pg.schema + "\" FROM \"" + role + "\"",
                    "DROP ROLE \"" + role + "\"");
        }
    }

    /** A TRUNCATE after the committed position: which keys it removed is not in the slot. */
    @Test
    void aTruncateSinceLeavesTheColumnUnknownWithAWarning() throws Exception {
        CliRun first = VerifyCli.syncOnce(dir, "shop");
        assertThat(first.exitCode()).as(first.all()).isZero();
        pg.exec("TRUNCATE items", "INSERT INTO items VALUES (1, 'item 1', 1.5)");

        CliRun run = VerifyCli.verify(dir, "shop");

        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        assertThat(run.out())
                .startsWith(
                        VerifyCli.HEADER
                                + "items             1               100        0     99"
                                + "           0          0         unknown\n");
        assertThat(run.err())
                .contains(
                        "warning: items: replication slot "
                                + shop.slot
                                + " holds a TRUNCATE of the table after the committed position:"
                                + " which rows are not synced yet is unknown\n");
        assertThat(
                        pg.one(
                                "SELECT count(*) FROM pg_replication_slots"
                                        + " WHERE slot_name LIKE 'skippr\\_verify\\_%'"))
                .containsExactly("0");
    }
}
