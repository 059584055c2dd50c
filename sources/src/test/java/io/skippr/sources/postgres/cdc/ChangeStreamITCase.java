package io.skippr.sources.postgres.cdc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.DataType;
import io.skippr.sources.postgres.PgTestDatabase;
import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slots, the exported snapshot and the change stream against the test PostgreSQL (wal_level
 * logical). Each test has its own schema, publication and slot, all dropped at the end. A test ends
 * its changes with a row in table {@code m} and reads up to it, so "nothing else came" is checked
 * without waiting for a timeout.
 */
class ChangeStreamITCase {
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STATUS_INTERVAL = Duration.ofMillis(100);

    private final PostgresConnectionConfig config = PgTestDatabase.connection();
    private final List<AutoCloseable> open = new ArrayList<>();
    private String schema;
    private String slot;

    @BeforeEach
    void createSchema() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_cdc_");
        slot = schema;
        exec("CREATE TABLE " + table("m") + " (id int PRIMARY KEY)");
    }

    @AfterEach
    void dropAll() throws Exception {
        for (AutoCloseable closeable : open) {
            PostgresConnectionConfig.closeQuietly(closeable);
        }
        dropSlotOnceReleased();
        try (Connection c = PgTestDatabase.open()) {
            Slots.dropPublication(c, schema);
        }
        PgTestDatabase.dropSchema(schema);
    }

    @Test
    void insertsUpdatesAndDeletesOfSeveralTypesComeAsTypedValuesInCommitOrder() throws Exception {
        exec(
                "CREATE TABLE "
                        + table("t")
                        + " (id int PRIMARY KEY, i2 smallint, i8 bigint, f8 float8,"
                        + " n numeric(10,2), b bool, d date, tm time, ts timestamp,"
                        + " tz timestamptz, u uuid, by bytea, j jsonb, s text)");
        ChangeStream stream = start("t");
        List<Long> xids = new ArrayList<>();
        try (Connection c = PgTestDatabase.open()) {
            c.setAutoCommit(false);
            PgTestDatabase.execIn(
                    c,
                    "INSERT INTO "
                            + table("t")
                            + " VALUES (1, -7, 9000000000, 1.5, 12.30, true, '2024-02-29',"
                            + " '10:11:12.5', '2024-05-01 10:00:00.123456',"
                            + " '2024-05-01 12:00:00+02', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',"
                            + " '\\x00ff', '{\"k\": [1, 2]}', 'é, \"quoted\"'),"
                            + " (2, NULL, NULL, 'NaN', NULL, NULL, NULL, NULL, NULL, NULL,"
                            + " NULL, NULL, NULL, NULL)");
            xids.add(xid(c));
            c.commit();
            PgTestDatabase.execIn(
                    c, "UPDATE " + table("t") + " SET s = 'new', n = 0.5 WHERE id = 1");
            xids.add(xid(c));
            c.commit();
            PgTestDatabase.execIn(c, "DELETE FROM " + table("t") + " WHERE id = 2");
            xids.add(xid(c));
            c.commit();
        }
        List<ReadTransaction> txs = readToMarker(stream);

        assertThat(txs).extracting(ReadTransaction::xid).containsExactlyElementsOf(xids);
        assertThat(txs.get(0).commitLsn()).isLessThan(txs.get(1).commitLsn());
        assertThat(txs.get(1).commitLsn()).isLessThan(txs.get(2).commitLsn());
        for (ReadTransaction tx : txs) {
            assertThat(tx.endLsn()).isGreaterThan(tx.commitLsn());
            assertThat(tx.commitTime()).isBetween(Instant.now().minusSeconds(120), Instant.now());
            for (Change change : tx.changes()) {
                assertThat(change.lsn()).isLessThan(tx.commitLsn());
                assertThat(change.commitLsn()).isEqualTo(tx.commitLsn());
                assertThat(change.xid()).isEqualTo(tx.xid());
                assertThat(change.commitTime()).isEqualTo(tx.commitTime());
                assertThat(change.schema()).isEqualTo(schema);
                assertThat(change.table()).isEqualTo("t");
            }
        }

        List<Change> inserts = txs.get(0).changes();
        assertThat(inserts).extracting(Change::op).containsOnly(Change.Op.INSERT);
        assertThat(inserts.get(0).lsn()).isLessThan(inserts.get(1).lsn());
        assertThat(values(inserts.get(0).newValues()))
                .containsExactly(
                        1,
                        (short) -7,
                        9_000_000_000L,
                        1.5d,
                        new BigDecimal("12.30"),
                        true,
                        LocalDate.of(2024, 2, 29),
                        LocalTime.of(10, 11, 12, 500_000_000),
                        LocalDateTime.of(2024, 5, 1, 10, 0, 0, 123_456_000),
                        Instant.parse("2024-05-01T10:00:00Z"),
                        UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
                        new byte[] {0, -1},
                        "{\"k\": [1, 2]}",
                        "é, \"quoted\"");
        assertThat(inserts.get(0).columns())
                .extracting(ChangeColumn::name)
                .containsExactly(
                        "id", "i2", "i8", "f8", "n", "b", "d", "tm", "ts", "tz", "u", "by", "j",
                        "s");
        assertThat(inserts.get(0).columns())
                .extracting(ChangeColumn::key)
                .containsExactly(
                        true, false, false, false, false, false, false, false, false, false, false,
                        false, false, false);
        assertThat(inserts.get(1).newValues().get(0).value()).isEqualTo(2);
        assertThat(inserts.get(1).newValues().get(3).value()).isEqualTo(Double.NaN);
        assertThat(inserts.get(1).newValues().subList(4, 14))
                .allMatch(v -> v.state() == ColumnValue.State.NULL);

        Change update = txs.get(1).changes().get(0);
        assertThat(update.op()).isEqualTo(Change.Op.UPDATE);
        assertThat(update.oldValues())
                .as("DEFAULT identity, key unchanged: no old tuple")
                .isEmpty();
        assertThat(update.newValues().get(4).value()).isEqualTo(new BigDecimal("0.50"));
        assertThat(update.newValues().get(13).value()).isEqualTo("new");
        assertThat(update.newValues().get(2).value()).isEqualTo(9_000_000_000L);

        Change delete = txs.get(2).changes().get(0);
        assertThat(delete.op()).isEqualTo(Change.Op.DELETE);
        assertThat(delete.newValues()).isEmpty();
        assertThat(delete.oldIsKey()).isTrue();
        assertThat(delete.oldValues().get(0).value()).isEqualTo(2);
        assertThat(delete.oldValues().subList(1, 14))
                .allMatch(v -> v.state() == ColumnValue.State.NULL);
    }

    @Test
    void domainsAreTypedAsTheirBaseTypeAndEnumsAndArraysAsText() throws Exception {
        exec(
                "CREATE DOMAIN " + table("money2") + " AS numeric(10,2)",
                "CREATE DOMAIN " + table("positive") + " AS int CHECK (VALUE > 0)",
                "CREATE DOMAIN " + table("stamp") + " AS " + table("positive"),
                "CREATE TYPE " + table("mood") + " AS ENUM ('sad', 'happy')",
                "CREATE TABLE "
                        + table("t")
                        + " (id int PRIMARY KEY, m "
                        + table("money2")
                        + ", p "
                        + table("stamp")
                        + ", md "
                        + table("mood")
                        + ", a int[])");
        ChangeStream stream = start("t");
        exec("INSERT INTO " + table("t") + " VALUES (1, 1.5, 7, 'happy', '{1,2}')");
        Change insert = readToMarker(stream).get(0).changes().get(0);
        assertThat(insert.columns())
                .extracting(ChangeColumn::type)
                .containsExactly(
                        DataType.INT32,
                        DataType.decimal(10, 2),
                        DataType.INT32,
                        DataType.STRING,
                        DataType.STRING);
        assertThat(values(insert.newValues()))
                .containsExactly(1, new BigDecimal("1.50"), 7, "happy", "{1,2}");
    }

    @Test
    void aTransactionOpenWhileAnotherCommitsComesAfterIt() throws Exception {
        exec("CREATE TABLE " + table("t") + " (id int PRIMARY KEY)");
        ChangeStream stream = start("t");
        try (Connection early = PgTestDatabase.open()) {
            early.setAutoCommit(false);
            PgTestDatabase.execIn(early, "INSERT INTO " + table("t") + " VALUES (1)");
            exec("INSERT INTO " + table("t") + " VALUES (2)");
            PgTestDatabase.execIn(early, "INSERT INTO " + table("t") + " VALUES (3)");
            early.commit();
        }
        List<ReadTransaction> txs = readToMarker(stream);
        assertThat(txs).hasSize(2);
        assertThat(ids(txs.get(0))).containsExactly(2);
        assertThat(ids(txs.get(1))).containsExactly(1, 3);
        assertThat(txs.get(0).endLsn()).isLessThanOrEqualTo(txs.get(1).commitLsn());
        assertThat(txs.get(1).changes().get(0).lsn())
                .as("the later commit's first change was written before the earlier commit")
                .isLessThan(txs.get(0).commitLsn());
    }

    @Test
    void anUpdateThatLeavesAToastedValueAloneMarksItUnchanged() throws Exception {
        exec("CREATE TABLE " + table("t") + " (id int PRIMARY KEY, big text, note text)");
        ChangeStream stream = start("t");
        // 200 md5 digests: 6,400 characters pglz cannot shrink, stored out of line
        exec(
                "INSERT INTO "
                        + table("t")
                        + " SELECT 1, string_agg(md5(i::text), '' ORDER BY i), 'first'"
                        + " FROM generate_series(1, 200) i",
                "UPDATE " + table("t") + " SET note = 'second' WHERE id = 1");
        String big;
        try (Connection c = PgTestDatabase.open();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT big, pg_column_size(big), pg_column_compression(big)"
                                        + " FROM "
                                        + table("t"))) {
            rs.next();
            big = rs.getString(1);
            assertThat(rs.getInt(2)).as("stored size").isEqualTo(6_400);
            assertThat(rs.getString(3)).as("compression").isNull();
        }
        List<ReadTransaction> txs = readToMarker(stream);
        assertThat(txs).hasSize(2);
        assertThat(txs.get(0).changes().get(0).newValues().get(1).value()).isEqualTo(big);
        Change update = txs.get(1).changes().get(0);
        assertThat(update.newValues().get(1).state()).isEqualTo(ColumnValue.State.UNCHANGED);
        assertThat(update.newValues().get(1).value()).isNull();
        assertThat(update.newValues().get(2).value()).isEqualTo("second");
    }

    @Test
    void replicaIdentityFullGivesTheWholeOldRow() throws Exception {
        exec(
                "CREATE TABLE " + table("t") + " (id int PRIMARY KEY, name text, score int)",
                "ALTER TABLE " + table("t") + " REPLICA IDENTITY FULL",
                "INSERT INTO " + table("t") + " VALUES (1, 'one', 10), (2, 'two', NULL)");
        ChangeStream stream = start("t");
        exec(
                "UPDATE " + table("t") + " SET score = 11 WHERE id = 1",
                "DELETE FROM " + table("t") + " WHERE id = 2");
        List<ReadTransaction> txs = readToMarker(stream);
        Change update = txs.get(0).changes().get(0);
        assertThat(update.oldIsKey()).isFalse();
        assertThat(values(update.oldValues())).containsExactly(1, "one", 10);
        assertThat(values(update.newValues())).containsExactly(1, "one", 11);
        assertThat(update.columns()).extracting(ChangeColumn::key).containsOnly(true);
        Change delete = txs.get(1).changes().get(0);
        assertThat(delete.oldIsKey()).isFalse();
        assertThat(delete.oldValues().get(1).value()).isEqualTo("two");
        assertThat(delete.oldValues().get(2).state()).isEqualTo(ColumnValue.State.NULL);
    }

    @Test
    void underFullTheOldRowCarriesTheToastedValueTheNewRowMarksUnchanged() throws Exception {
        exec(
                "CREATE TABLE " + table("t") + " (id int PRIMARY KEY, big text, note text)",
                "ALTER TABLE " + table("t") + " REPLICA IDENTITY FULL",
                "INSERT INTO "
                        + table("t")
                        + " SELECT 1, string_agg(md5(i::text), '' ORDER BY i), 'first'"
                        + " FROM generate_series(1, 200) i");
        ChangeStream stream = start("t");
        exec("UPDATE " + table("t") + " SET note = 'second' WHERE id = 1");
        Change update = readToMarker(stream).get(0).changes().get(0);
        assertThat(update.newValues().get(1).state()).isEqualTo(ColumnValue.State.UNCHANGED);
        assertThat(update.oldIsKey()).isFalse();
        assertThat((String) update.oldValues().get(1).value()).hasSize(6_400).startsWith(md5("1"));
        assertThat(update.oldValues().get(2).value()).isEqualTo("first");
    }

    @Test
    void aChangedKeyGivesTheOldKeyAndTruncateIsAChangeOfQuotedNames() throws Exception {
        String odd = "Odd \"T\", too";
        String publication = schema + "_Pub \"x\"";
        exec(
                "CREATE TABLE " + table(odd) + " (\"Id\" int PRIMARY KEY, v text)",
                "INSERT INTO " + table(odd) + " VALUES (1, 'a')");
        try (Connection c = PgTestDatabase.open()) {
            Slots.ensurePublication(c, publication, List.of(new Slots.TableName(schema, odd)));
            Slots.ensurePublication(
                    c,
                    publication,
                    List.of(new Slots.TableName(schema, odd), new Slots.TableName(schema, "m")));
            assertThat(Slots.publishedTables(c, publication))
                    .containsExactlyInAnyOrder(
                            new Slots.TableName(schema, odd), new Slots.TableName(schema, "m"));
        }
        ChangeStream stream;
        try {
            Slots.createSlot(config, slot, CREATE_TIMEOUT).close();
            stream = track(ChangeStream.open(config, slot, publication, 0, STATUS_INTERVAL));
            exec(
                    "UPDATE " + table(odd) + " SET \"Id\" = 5 WHERE \"Id\" = 1",
                    "TRUNCATE " + table(odd));
            List<ReadTransaction> txs = readToMarker(stream);
            assertThat(txs).hasSize(2);
            Change update = txs.get(0).changes().get(0);
            assertThat(update.table()).isEqualTo(odd);
            assertThat(update.columns().get(0).name()).isEqualTo("Id");
            assertThat(update.oldIsKey()).isTrue();
            assertThat(values(update.oldValues())).containsExactly(1, null);
            assertThat(update.oldValues().get(1).state()).isEqualTo(ColumnValue.State.NULL);
            assertThat(values(update.newValues())).containsExactly(5, "a");
            Change truncate = txs.get(1).changes().get(0);
            assertThat(truncate.op()).isEqualTo(Change.Op.TRUNCATE);
            assertThat(truncate.schema() + "." + truncate.table()).isEqualTo(schema + "." + odd);
            assertThat(truncate.newValues()).isEmpty();
            assertThat(truncate.oldValues()).isEmpty();
        } finally {
            try (Connection c = PgTestDatabase.open()) {
                Slots.dropPublication(c, publication);
            }
        }
    }

    /**
     * A table added to the publication while a walsender streams it, as the CDC source adds one: a
     * transaction that begins after {@code ALTER PUBLICATION ... ADD TABLE} committed is sent by
     * the running walsender; the temporary slot created after the ALTER waits for the transaction
     * that was open across it, so that one commits before the slot's consistent point and its
     * exported snapshot holds its row (what pgoutput sends for such a transaction is recorded here;
     * the source drops an added table's changes up to the consistent point either way).
     */
    @Test
    void aTableAddedToThePublicationWhileStreamingIsSentAfterATemporarySlotsPoint()
            throws Exception {
        exec("CREATE TABLE " + table("t") + " (id int PRIMARY KEY)");
        exec(
                "CREATE TABLE " + table("b") + " (id int PRIMARY KEY)",
                "INSERT INTO " + table("b") + " VALUES (1)");
        ChangeStream stream = start("t");
        SlotSnapshot temporary;
        long afterEarly;
        try (Connection early = PgTestDatabase.open()) {
            early.setAutoCommit(false);
            PgTestDatabase.execIn(early, "INSERT INTO " + table("b") + " VALUES (2)");
            try (Connection c = PgTestDatabase.open()) {
                Slots.ensurePublication(
                        c,
                        schema,
                        List.of(
                                new Slots.TableName(schema, "t"),
                                new Slots.TableName(schema, "m"),
                                new Slots.TableName(schema, "b")));
            }
            exec("INSERT INTO " + table("b") + " VALUES (3)"); // begins after the ALTER
            CompletableFuture<SlotSnapshot> creating =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return Slots.createTemporarySlot(
                                            config, slot + "_add_t", CREATE_TIMEOUT);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            });
            early.commit();
            afterEarly = walInsertLsn();
            temporary = track(creating.get());
        }
        assertThat(temporary.consistentPoint()).isGreaterThanOrEqualTo(afterEarly);
        exec("INSERT INTO " + table("b") + " VALUES (4)");
        List<Integer> snapshot = new ArrayList<>();
        try (Connection reader = PgTestDatabase.open()) {
            reader.setAutoCommit(false);
            PgTestDatabase.execIn(
                    reader,
                    "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                    "SET TRANSACTION SNAPSHOT '" + temporary.snapshotName() + "'");
            try (Statement s = reader.createStatement();
                    ResultSet rs =
                            s.executeQuery("SELECT id FROM " + table("b") + " ORDER BY id")) {
                while (rs.next()) {
                    snapshot.add(rs.getInt(1));
                }
            }
        }
        assertThat(snapshot).containsExactly(1, 2, 3);
        List<Integer> sent = new ArrayList<>();
        List<Integer> afterPoint = new ArrayList<>();
        for (ReadTransaction tx : readToMarker(stream)) {
            for (Change change : tx.changes()) {
                if (change.table().equals("b")) {
                    int id = (Integer) change.newValues().get(0).value();
                    sent.add(id);
                    if (tx.commitLsn() > temporary.consistentPoint()) {
                        afterPoint.add(id);
                    }
                }
            }
        }
        assertThat(afterPoint).containsExactly(4);
        // PostgreSQL 15 sends the change of the transaction open across the ALTER too: the
        // source drops it (it commits before the temporary slot's point, and is in its snapshot)
        assertThat(sent).containsExactly(3, 2, 4);
        temporary.close();
        // the server drops a temporary slot when its walsender's session ends, after the close
        String count =
                "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "_add_t'";
        await("the temporary slot dropped", () -> query(count).equals("0"));
    }

    private static long walInsertLsn() throws Exception {
        try (Connection c = PgTestDatabase.open();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void theExportedSnapshotSeesExactlyWhatCommittedBeforeTheSlot() throws Exception {
        exec(
                "CREATE TABLE " + table("t") + " (id int PRIMARY KEY)",
                "INSERT INTO " + table("t") + " VALUES (1)");
        publish("t");
        List<Integer> snapshotIds = new ArrayList<>();
        try (SlotSnapshot created = Slots.createSlot(config, slot, CREATE_TIMEOUT)) {
            assertThat(created.slotName()).isEqualTo(slot);
            assertThat(created.snapshotName()).isNotBlank();
            assertThat(Lsn.show(created.consistentPoint()))
                    .isEqualTo(slotLsn("confirmed_flush_lsn"));
            exec("INSERT INTO " + table("t") + " VALUES (2)");
            try (Connection reader = PgTestDatabase.open()) {
                reader.setAutoCommit(false);
                PgTestDatabase.execIn(
                        reader,
                        "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                        "SET TRANSACTION SNAPSHOT '" + created.snapshotName() + "'");
                try (Statement s = reader.createStatement();
                        ResultSet rs =
                                s.executeQuery("SELECT id FROM " + table("t") + " ORDER BY id")) {
                    while (rs.next()) {
                        snapshotIds.add(rs.getInt(1));
                    }
                }
                reader.commit();
            }
        }
        assertThat(snapshotIds).containsExactly(1);
        ChangeStream stream = reopen(0);
        List<ReadTransaction> txs = readToMarker(stream);
        assertThat(txs).hasSize(1);
        assertThat(ids(txs.get(0))).containsExactly(2);
    }

    @Test
    void confirmMovesTheSlotOnlyThereAndAReconnectResendsTheRest() throws Exception {
        exec("CREATE TABLE " + table("t") + " (id int PRIMARY KEY)");
        ChangeStream stream = start("t");
        String createdAt = slotLsn("confirmed_flush_lsn");
        List<ReadTransaction> txs = insertTwoAndRead(stream);
        assertThat(txs).hasSize(2);
        // reading, and status updates while polling, leave the slot where it was
        assertThat(stream.next(Duration.ofMillis(5 * STATUS_INTERVAL.toMillis()))).isNull();
        assertThat(slotLsn("confirmed_flush_lsn")).isEqualTo(createdAt);

        ReadTransaction first = txs.get(0);
        stream.confirm(first.endLsn());
        awaitConfirmed(Lsn.show(first.endLsn()));
        stream.close();

        ChangeStream again = reopen(0);
        ReadTransaction resent = ReadTransaction.of(again.next(READ_TIMEOUT));
        assertThat(resent).isNotNull();
        assertThat(resent.xid()).isEqualTo(txs.get(1).xid());
        assertThat(resent.commitLsn()).isEqualTo(txs.get(1).commitLsn());
        assertThat(ids(resent)).containsExactly(2);
        ReadTransaction marker = ReadTransaction.of(again.next(READ_TIMEOUT));
        assertThat(marker.changes().get(0).table()).isEqualTo("m");
    }

    @Test
    void aStartLsnSkipsTheTransactionsBeforeItWithoutConfirmingThem() throws Exception {
        exec("CREATE TABLE " + table("t") + " (id int PRIMARY KEY)");
        ChangeStream stream = start("t");
        String createdAt = slotLsn("confirmed_flush_lsn");
        List<ReadTransaction> txs = insertTwoAndRead(stream);
        stream.close();

        ChangeStream after = reopen(txs.get(0).endLsn());
        assertThat(ids(ReadTransaction.of(after.next(READ_TIMEOUT)))).containsExactly(2);
        assertThat(ReadTransaction.of(after.next(READ_TIMEOUT)).changes().get(0).table())
                .isEqualTo("m");
        assertThat(after.next(Duration.ofMillis(5 * STATUS_INTERVAL.toMillis()))).isNull();
        assertThat(slotLsn("confirmed_flush_lsn")).isEqualTo(createdAt);
    }

    @Test
    void changesOfUnpublishedTablesMoveTheIdleLsnWhichCanBeConfirmed() throws Exception {
        exec(
                "CREATE TABLE " + table("t") + " (id int PRIMARY KEY)",
                "CREATE TABLE " + table("u") + " (id int PRIMARY KEY)");
        ChangeStream stream = start("t");
        String createdAt = slotLsn("confirmed_flush_lsn");
        exec("INSERT INTO " + table("u") + " SELECT generate_series(1, 100)");
        long written = Lsn.parse(query("SELECT pg_current_wal_lsn()::text"));
        long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
        while (stream.idleLsn() < written && System.nanoTime() < deadline) {
            assertThat(stream.next(STATUS_INTERVAL)).as("nothing of table u").isNull();
        }
        long idle = stream.idleLsn();
        assertThat(idle).isGreaterThanOrEqualTo(written);
        assertThat(slotLsn("confirmed_flush_lsn")).isEqualTo(createdAt);
        stream.confirm(idle);
        awaitConfirmed(Lsn.show(idle));

        exec("INSERT INTO " + table("t") + " VALUES (1)");
        List<ReadTransaction> txs = readToMarker(stream);
        assertThat(txs).hasSize(1);
        assertThat(txs.get(0).commitLsn()).isGreaterThan(idle);
        assertThat(ids(txs.get(0))).containsExactly(1);
    }

    @Test
    void aMillionRowTransactionIsDeliveredOnceWithTenThousandChangesInMemory(@TempDir Path spill)
            throws Exception {
        int rows = 1_000_000;
        int limit = 10_000;
        exec("CREATE TABLE " + table("big") + " (id int, v int)");
        ChangeStream stream = start("big", new SpillSettings(limit, spill));
        exec(
                "INSERT INTO "
                        + table("big")
                        + " SELECT id, (id::bigint * 7919 % 1000003)::int FROM generate_series(1, "
                        + rows
                        + ") AS id");
        exec("INSERT INTO " + table("m") + " VALUES (1)");
        String expected =
                query(
                        "SELECT count(*) || ' ' || sum(id) || ' '"
                                + " || md5(string_agg(v::text, ',' ORDER BY id)) FROM "
                                + table("big"));

        try (Transaction tx = stream.next(Duration.ofSeconds(60))) {
            assertThat(tx).isNotNull();
            assertThat(tx.changes().size()).isEqualTo(rows);
            assertThat(tx.changes().inMemory()).isEqualTo(limit);
            Path file = tx.changes().file();
            assertThat(file).exists().hasParent(spill);
            long count = 0;
            long sum = 0;
            java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
            for (Change change : tx.changes()) {
                assertThat(change.op()).isEqualTo(Change.Op.INSERT);
                md5.update(
                        ((count == 0 ? "" : ",") + change.newValues().get(1).text())
                                .getBytes(StandardCharsets.UTF_8));
                sum += (Integer) change.newValues().get(0).value();
                count++;
            }
            assertThat(count + " " + sum + " " + java.util.HexFormat.of().formatHex(md5.digest()))
                    .isEqualTo(expected);
            assertThat(file).doesNotExist();
        }
        assertThat(ReadTransaction.of(stream.next(READ_TIMEOUT)).changes().get(0).table())
                .as("the marker comes next: the big transaction came once")
                .isEqualTo("m");
        try (Stream<Path> left = Files.list(spill)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void slotCreationBlockedByOpenTransactionsTimesOutNamingThem() throws Exception {
        exec("CREATE TABLE " + table("t") + " (id int PRIMARY KEY)");
        String gid = schema + "_prepared";
        try (Connection blocker = PgTestDatabase.open()) {
            blocker.setAutoCommit(false);
            PgTestDatabase.execIn(blocker, "INSERT INTO " + table("t") + " VALUES (1)");
            int pid;
            try (Statement s = blocker.createStatement();
                    ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                pid = rs.getInt(1);
            }
            try (Connection preparer = PgTestDatabase.open()) {
                preparer.setAutoCommit(false);
                PgTestDatabase.execIn(
                        preparer,
                        "INSERT INTO " + table("t") + " VALUES (2)",
                        "PREPARE TRANSACTION '" + gid + "'");
            }
            try {
                assertThatThrownBy(() -> Slots.createSlot(config, slot, Duration.ofSeconds(2)))
                        .isInstanceOf(IOException.class)
                        .hasMessageStartingWith(
                                "Creating replication slot "
                                        + slot
                                        + " on "
                                        + config.describe()
                                        + " did not finish within 2 s: PostgreSQL makes a new"
                                        + " slot wait until every transaction open when its"
                                        + " creation started has ended. Open transactions: ")
                        .hasMessageContaining(
                                "session pid "
                                        + pid
                                        + " (user \""
                                        + config.user()
                                        + "\", application \"skippr-read\", idle in transaction,"
                                        + " xid ")
                        .hasMessageContaining("prepared transaction '" + gid + "' (xid ")
                        .hasMessageEndingWith(
                                " End them (COMMIT or ROLLBACK, COMMIT PREPARED or ROLLBACK"
                                        + " PREPARED, or SELECT pg_terminate_backend(pid)) and try"
                                        + " again.");
            } finally {
                exec("ROLLBACK PREPARED '" + gid + "'");
            }
            blocker.rollback();
        }
        awaitNoSlot();
    }

    private ChangeStream start(String table) throws Exception {
        return start(table, SpillSettings.defaults());
    }

    private ChangeStream start(String table, SpillSettings spill) throws Exception {
        publish(table);
        try (SlotSnapshot created = Slots.createSlot(config, slot, CREATE_TIMEOUT)) {
            assertThat(created.consistentPoint()).isPositive();
        }
        return track(ChangeStream.open(config, slot, schema, 0, STATUS_INTERVAL, spill));
    }

    private void publish(String table) throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            Slots.ensurePublication(
                    c,
                    schema,
                    List.of(new Slots.TableName(schema, table), new Slots.TableName(schema, "m")));
            assertThat(Slots.publishedTables(c, schema))
                    .containsExactlyInAnyOrder(
                            new Slots.TableName(schema, table), new Slots.TableName(schema, "m"));
        }
    }

    private ChangeStream reopen(long startLsn) throws IOException {
        return track(ChangeStream.open(config, slot, schema, startLsn, STATUS_INTERVAL));
    }

    /** Inserts ids 1 and 2 in two transactions, and reads them. */
    private List<ReadTransaction> insertTwoAndRead(ChangeStream stream) throws Exception {
        exec(
                "INSERT INTO " + table("t") + " VALUES (1)",
                "INSERT INTO " + table("t") + " VALUES (2)");
        return readToMarker(stream);
    }

    /** Commits a row into {@code m}, then returns the transactions before it. */
    private List<ReadTransaction> readToMarker(ChangeStream stream) throws Exception {
        exec("INSERT INTO " + table("m") + " VALUES (1)");
        List<ReadTransaction> before = new ArrayList<>();
        while (true) {
            ReadTransaction tx = ReadTransaction.of(stream.next(READ_TIMEOUT));
            assertThat(tx).as("a transaction within " + READ_TIMEOUT).isNotNull();
            if (tx.changes().get(0).table().equals("m")) {
                return before;
            }
            before.add(tx);
        }
    }

    private <T extends AutoCloseable> T track(T closeable) {
        open.add(closeable);
        return closeable;
    }

    private String table(String name) {
        return Slots.quoteName(schema) + "." + Slots.quoteName(name);
    }

    private static void exec(String... statements) throws Exception {
        PgTestDatabase.exec(statements);
    }

    private static long xid(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text::bigint")) {
            rs.next();
            return rs.getLong(1) & 0xffffffffL;
        }
    }

    private static String md5(String text) throws Exception {
        byte[] digest =
                java.security.MessageDigest.getInstance("MD5")
                        .digest(text.getBytes(StandardCharsets.UTF_8));
        return java.util.HexFormat.of().formatHex(digest);
    }

    private static List<Object> values(List<ColumnValue> values) {
        List<Object> out = new ArrayList<>();
        for (ColumnValue v : values) {
            out.add(v.value());
        }
        return out;
    }

    private static List<Object> ids(ReadTransaction tx) {
        List<Object> out = new ArrayList<>();
        for (Change change : tx.changes()) {
            out.add(change.newValues().get(0).value());
        }
        return out;
    }

    private static String query(String sql) throws Exception {
        try (Connection c = PgTestDatabase.open();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private String slotLsn(String column) throws Exception {
        String lsn =
                query(
                        "SELECT (SELECT "
                                + column
                                + "::text FROM pg_replication_slots WHERE slot_name = '"
                                + slot
                                + "')");
        assertThat(lsn).as(column + " of slot " + slot).isNotNull();
        return lsn;
    }

    /** The server applies a status update asynchronously: waits up to 10 s for it. */
    private void awaitConfirmed(String lsn) throws Exception {
        await("confirmed_flush_lsn " + lsn, () -> slotLsn("confirmed_flush_lsn").equals(lsn));
        assertThat(slotLsn("confirmed_flush_lsn")).isEqualTo(lsn);
    }

    private void awaitNoSlot() throws Exception {
        await("no slot named " + slot, () -> slotCount() == 0);
        assertThat(slotCount()).as("slots named " + slot).isZero();
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    /** Polls {@code condition} every 20 ms until it holds; fails naming {@code what} after 10 s. */
    private static void await(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    private long slotCount() throws Exception {
        return Long.parseLong(
                query(
                        "SELECT count(*) FROM pg_replication_slots WHERE slot_name = '"
                                + slot
                                + "'"));
    }

    /**
     * Drops the test's slot if it is there, once a closed stream's walsender has released it: the
     * replication protocol's {@code DROP_REPLICATION_SLOT ... WAIT} blocks until then.
     */
    private void dropSlotOnceReleased() throws Exception {
        if (slotCount() == 0) {
            return;
        }
        try (Connection c = ReplicationConnections.open(config);
                Statement s = c.createStatement()) {
            s.execute("DROP_REPLICATION_SLOT " + Slots.quoteName(slot) + " WAIT");
        }
    }
}
