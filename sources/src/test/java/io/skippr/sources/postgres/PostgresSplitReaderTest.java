package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Secret;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.sources.RecordedMetrics;
import io.skippr.sources.StreamBytes;
import java.io.IOException;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The reader side without a cluster: reading a split, stopping mid-table as a failure would, and
 * resuming from the checkpointed split, with neither loss nor duplicates.
 */
class PostgresSplitReaderTest {
    private String schema;

    @BeforeEach
    void createSchema() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_reader_");
    }

    @AfterEach
    void dropSchema() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    /** Collects what an emitter outputs. */
    static final class Output extends io.skippr.sources.CollectingOutput {}

    /**
     * Reads {@code split} through a fresh reader and emitter, emitting at most {@code limit}
     * records (the rest of a fetched batch is dropped, as in a crash), and returns the split as a
     * checkpoint would hold it, or null when the split was finished.
     */
    static PostgresSplit read(PostgresSplit split, long limit, Output output) throws Exception {
        return read(split, limit, output, false);
    }

    /** {@link #read(PostgresSplit, long, Output)} by a reader of a continuous run or not. */
    static PostgresSplit read(PostgresSplit split, long limit, Output output, boolean continuous)
            throws Exception {
        return read(split, limit, output, continuous, new RecordedMetrics());
    }

    /** {@link #read(PostgresSplit, long, Output, boolean)}, counting into {@code metrics}. */
    static PostgresSplit read(
            PostgresSplit split,
            long limit,
            Output output,
            boolean continuous,
            RecordedMetrics metrics)
            throws Exception {
        PostgresSplitState state = new PostgresSplitState(split);
        PostgresRecordEmitter emitter = new PostgresRecordEmitter(new StreamBytes(metrics));
        try (PostgresSplitReader reader =
                new PostgresSplitReader(PgTestDatabase.connection(), continuous)) {
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
            long emitted = 0;
            while (true) {
                RecordsWithSplitIds<ReadRecord> batch = reader.fetch();
                String id;
                while ((id = batch.nextSplit()) != null) {
                    assertThat(id).isEqualTo(split.splitId());
                    ReadRecord record;
                    while ((record = batch.nextRecordFromSplit()) != null) {
                        if (emitted == limit) {
                            return roundTrip(state.toSplit());
                        }
                        emitter.emitRecord(record, output, state);
                        emitted++;
                    }
                }
                if (batch.finishedSplits().contains(split.splitId())) {
                    return null;
                }
            }
        }
    }

    static PostgresSplit roundTrip(PostgresSplit split) throws IOException {
        PostgresSplitSerializer s = PostgresSplitSerializer.INSTANCE;
        return s.deserialize(s.getVersion(), s.serialize(split));
    }

    private TableInfo describe(String table) throws Exception {
        return describe(table, null);
    }

    private TableInfo describe(String table, String cursor) throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            return PostgresCatalog.describe(c, schema, table, cursor);
        }
    }

    /** Reads whole the late-commit split of the reads whose positions {@code read} holds. */
    private static Output lateRead(TableInfo table, Output read) throws Exception {
        Output late = new Output();
        assertThat(
                        read(
                                PostgresSplit.lateCommits("l#1", table, positions(read)),
                                Long.MAX_VALUE,
                                late))
                .isNull();
        return late;
    }

    /** Reads the split in pieces, restoring from the checkpointed split after each. */
    private static List<Row> readWithRestarts(PostgresSplit split, long... limits)
            throws Exception {
        List<Row> rows = new ArrayList<>();
        PostgresSplit current = split;
        for (long limit : limits) {
            Output output = new Output();
            current = read(current, limit, output);
            assertThat(output.records.get(0))
                    .as("a restored reader announces the schema before its first row")
                    .isInstanceOf(SchemaChange.class);
            rows.addAll(output.rows());
            assertThat(current).as("split unfinished after " + limit + " rows").isNotNull();
        }
        Output rest = new Output();
        assertThat(read(current, Long.MAX_VALUE, rest)).isNull();
        rows.addAll(rest.rows());
        return rows;
    }

    /**
     * {@code bytesRead} counts each row's tuple as the binary COPY sent it: a 2-byte field count,
     * then per field a 4-byte length and its bytes (an int4, and text in UTF-8).
     */
    @Test
    void eachRowCountsTheBytesPostgresSentForIt() throws Exception {
        String t = Sql.table(schema, "sized");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id int PRIMARY KEY, name text)",
                "INSERT INTO " + t + " VALUES (1, 'a'), (2, 'bé'), (3, NULL)");
        RecordedMetrics metrics = new RecordedMetrics();
        Output output = new Output();
        assertThat(
                        read(
                                PostgresSplit.fresh("z#0", describe("sized"), null, null, null),
                                Long.MAX_VALUE,
                                output,
                                false,
                                metrics))
                .isNull();
        assertThat(output.rows()).hasSize(3);
        long tuple = 2 + (4 + 4) + 4; // field count, id, name's length
        assertThat(metrics.count("skippr.stream.sized.bytesRead"))
                .isEqualTo(tuple + 1 + tuple + 3 + tuple);
    }

    @Test
    void resumesAfterTheLastEmittedKey() throws Exception {
        String t = Sql.table(schema, "items");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id int PRIMARY KEY, name text)",
                "INSERT INTO " + t + " SELECT g, 'n' || g FROM generate_series(1, 500) g");
        TableInfo table = describe("items");
        List<Row> rows =
                readWithRestarts(PostgresSplit.fresh("s#0", table, null, null, null), 1, 123, 200);
        assertThat(rows).hasSize(500);
        assertThat(rows.stream().map(r -> (Integer) r.value(0)).toList())
                .containsExactlyElementsOf(
                        java.util.stream.IntStream.rangeClosed(1, 500).boxed().toList());
        assertThat(rows.get(41).position()).isEqualTo("items|id=42");
        assertThat(rows.get(41).value(1)).isEqualTo("n42");
    }

    @Test
    void resumesACompositeKeyOfText() throws Exception {
        String t = Sql.table(schema, "pairs");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (k text, n int, v text, PRIMARY KEY (k, n))",
                "INSERT INTO "
                        + t
                        + " SELECT 'k' || (g % 7), g, 'v' || g"
                        + " FROM generate_series(1, 298) g",
                // separators in key values are escaped in positions
                "INSERT INTO " + t + " VALUES ('x,n=1', 2, 'a'), ('x', 1, 'b')",
                "INSERT INTO " + t + " VALUES (E'p|q\\\\', 3, 'c')");
        TableInfo table = describe("pairs");
        List<Row> rows =
                readWithRestarts(PostgresSplit.fresh("p#0", table, null, null, null), 50, 99);
        assertThat(rows).hasSize(301);
        Set<String> positions = new HashSet<>();
        rows.forEach(r -> positions.add(r.position()));
        assertThat(positions)
                .hasSize(301)
                .contains(
                        "pairs|k=k3,n=10",
                        "pairs|k=x\\,n=1,n=2",
                        "pairs|k=x,n=1",
                        "pairs|k=p\\|q\\\\,n=3");
    }

    @Test
    void resumesATableWithoutKeyAfterTheLastRowsAddress() throws Exception {
        String t = Sql.table(schema, "log");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (msg text, n int, doc json)",
                // duplicates on purpose: identical rows are interchangeable
                "INSERT INTO "
                        + t
                        + " SELECT 'm' || (g % 50), g % 3, '{\"a\": 1}'"
                        + " FROM generate_series(1, 400) g");
        TableInfo table = describe("log");
        assertThat(table.primaryKey()).isEmpty();
        List<Row> rows =
                readWithRestarts(PostgresSplit.fresh("l#0", table, null, null, null), 77, 100);
        assertThat(rows).hasSize(400);
        assertThat(rows.stream().map(Row::position).distinct().count()).isEqualTo(400);
        assertThat(rows.get(0).position()).matches("log\\|#[0-9]+\\(0,1\\)@[0-9]+");
        // the same content as a fresh read, in the same order
        Output once = new Output();
        read(PostgresSplit.fresh("l#1", table, null, null, null), Long.MAX_VALUE, once);
        assertThat(rows).containsExactlyElementsOf(once.rows());
    }

    /**
     * A table without a key, read in part, then changed before the rest is read: a row read is
     * deleted, one not read yet is deleted, one is added, and a transaction in progress at the
     * first snapshot commits. The rest is read after the last row's address, so each row still
     * there arrives once, and the late read takes none of them again. Before, the rest skipped the
     * first part's number of rows in a new snapshot: with one of them deleted, a row was lost.
     */
    @Test
    void aTableWithoutKeyChangedBeforeItsSplitIsRestoredLoadsEachRowOnce() throws Exception {
        String t = Sql.table(schema, "log");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (msg text, v int)",
                "INSERT INTO "
                        + t
                        + " VALUES ('a', 11), ('b', 12), ('c', 13), ('d', 14), ('e', 15)");
        TableInfo table = describe("log", "v");
        PostgresSplit window =
                PostgresSplit.fresh("w#1", table, null, null, new CursorWindow("10", "20", false));
        Output first = new Output();
        PostgresSplit restored;
        try (Connection writer = PgTestDatabase.open()) {
            PgTestDatabase.execIn(writer, "SET application_name = 'app'");
            writer.setAutoCommit(false);
            PgTestDatabase.execIn(writer, "INSERT INTO " + t + " VALUES ('w', 16)");
            restored = read(window, 2, first);
            writer.commit();
        }
        PgTestDatabase.exec(
                "DELETE FROM " + t + " WHERE msg IN ('a', 'd')",
                "INSERT INTO " + t + " VALUES ('f', 17)");
        Output rest = new Output();
        assertThat(read(restored, Long.MAX_VALUE, rest)).isNull();
        assertThat(messages(first)).containsExactly("a", "b");
        assertThat(messages(rest)).containsExactly("c", "e", "w", "f");
        Output late = lateRead(table, rest);
        assertThat(messages(late)).as("read already after the restore").isEmpty();
    }

    /**
     * A table without a key rewritten (VACUUM FULL) after its split read a part: every row has a
     * new address, so the split is read again from its start (the page says its rows may load a
     * second time) rather than resumed after an address that now names another row.
     */
    @Test
    void aTableWithoutKeyRewrittenBeforeItsSplitIsRestoredIsReadAgainFromItsStart()
            throws Exception {
        String t = Sql.table(schema, "log");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (msg text)",
                "INSERT INTO " + t + " VALUES ('a'), ('b'), ('c'), ('d')");
        TableInfo table = describe("log");
        Output first = new Output();
        PostgresSplit restored =
                read(PostgresSplit.fresh("l#0", table, null, null, null), 2, first);
        PgTestDatabase.exec("DELETE FROM " + t + " WHERE msg = 'a'", "VACUUM FULL " + t);
        Output rest = new Output();
        assertThat(read(restored, Long.MAX_VALUE, rest)).isNull();
        assertThat(messages(first)).containsExactly("a", "b");
        assertThat(messages(rest)).containsExactly("b", "c", "d");
    }

    /**
     * A view has no row addresses and its rows no transaction ids: without a key it is read in the
     * order of all its columns and resumed by number, and a window's read of it names no
     * transactions, even while a writer is in one. Before, the read selected {@code ctid} and late
     * reads {@code xmin}, which a view does not have, and failed.
     */
    @Test
    void aViewIsReadWithoutRowAddressesOrTransactionIds() throws Exception {
        String t = Sql.table(schema, "log");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (msg text, v int)",
                "INSERT INTO " + t + " VALUES ('c', 13), ('a', 11), ('b', 12)",
                "CREATE VIEW " + Sql.table(schema, "log_view") + " AS SELECT * FROM " + t);
        TableInfo view = describe("log_view", "v");
        Output first = new Output();
        Output rest = new Output();
        try (Connection writer = PgTestDatabase.open()) {
            PgTestDatabase.execIn(writer, "SET application_name = 'app'");
            writer.setAutoCommit(false);
            PgTestDatabase.execIn(writer, "INSERT INTO " + t + " VALUES ('w', 14)");
            PostgresSplit restored =
                    read(
                            PostgresSplit.fresh(
                                    "w#1", view, null, null, new CursorWindow("10", "20", false)),
                            2,
                            first);
            assertThat(read(restored, Long.MAX_VALUE, rest)).isNull();
            writer.rollback();
        }
        assertThat(messages(first)).containsExactly("a", "b");
        assertThat(messages(rest)).containsExactly("c");
        assertThat(rest.rows().get(0).position()).isEqualTo("log_view|#3|v=13");
        assertThat(positions(rest)).singleElement().satisfies(e -> assertThat(e.open()).isFalse());
    }

    /**
     * A materialized view is read as a view: every refresh writes all its rows anew, and it cannot
     * be locked. Before, a split of one restored in the middle failed on LOCK TABLE every time.
     */
    @Test
    void aMaterializedViewIsReadByNumberAcrossARestore() throws Exception {
        String t = Sql.table(schema, "log");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (msg text)",
                "INSERT INTO " + t + " VALUES ('c'), ('a'), ('b'), ('d')",
                "CREATE MATERIALIZED VIEW "
                        + Sql.table(schema, "log_m")
                        + " AS SELECT * FROM "
                        + t);
        TableInfo view = describe("log_m");
        Output first = new Output();
        PostgresSplit restored = read(PostgresSplit.fresh("m#0", view, null, null, null), 2, first);
        Output rest = new Output();
        assertThat(read(restored, Long.MAX_VALUE, rest)).isNull();
        assertThat(messages(first)).containsExactly("a", "b");
        assertThat(messages(rest)).containsExactly("c", "d");
    }

    /**
     * A split of a table without a key checkpointed by an earlier version, which read in the order
     * of all columns and kept only the number of rows read, goes on that way to its end, across
     * more restores: the rows it had not read, each once.
     */
    @Test
    void aSplitOfAnEarlierVersionWithoutKeyGoesOnByNumber() throws Exception {
        String t = Sql.table(schema, "log");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (msg text)",
                "INSERT INTO " + t + " VALUES ('e'), ('b'), ('d'), ('a'), ('c'), ('f')");
        TableInfo table = describe("log");
        PostgresSplit earlier =
                new PostgresSplit("l#0", table, null, null, null, null, 2, null, List.of());
        Output first = new Output();
        PostgresSplit again = read(earlier, 2, first);
        assertThat(again.lastKey()).isNull();
        Output rest = new Output();
        assertThat(read(again, Long.MAX_VALUE, rest)).isNull();
        assertThat(messages(first)).containsExactly("c", "d");
        assertThat(messages(rest)).containsExactly("e", "f");
        assertThat(rest.rows().get(0).position()).isEqualTo("log|#5");
    }

    private static List<String> messages(Output output) {
        return output.rows().stream().map(r -> (String) r.values()[0]).toList();
    }

    @Test
    void restoresEachKeyRangeSplitExactly() throws Exception {
        String t = Sql.table(schema, "big");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id bigint PRIMARY KEY, v int)",
                "INSERT INTO " + t + " SELECT g * 3, g FROM generate_series(-1000, 3999) g");
        TableInfo table = describe("big");
        List<PostgresSplit> splits;
        try (Connection c = PgTestDatabase.open()) {
            splits = SplitPlanner.snapshotSplits(c, table, null, 1000, 2);
        }
        assertThat(splits).hasSizeGreaterThanOrEqualTo(5);
        assertThat(splits.get(0).keyFrom()).isNull();
        assertThat(splits.get(splits.size() - 1).keyTo()).isNull();
        List<Row> rows = new ArrayList<>();
        int n = 0;
        for (PostgresSplit split : splits) {
            rows.addAll(readWithRestarts(split.withId("b#" + n++), 10));
        }
        assertThat(rows).hasSize(5000);
        assertThat(rows.stream().map(r -> (Long) r.value(0)).distinct().count()).isEqualTo(5000);
    }

    @Test
    void partitionedTablesAreReadThroughTheirParent() throws Exception {
        String t = Sql.table(schema, "pt");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id int PRIMARY KEY, v text) PARTITION BY RANGE (id)",
                "CREATE TABLE "
                        + Sql.table(schema, "pt_1")
                        + " PARTITION OF "
                        + t
                        + " FOR VALUES FROM (MINVALUE) TO (1500)",
                "CREATE TABLE "
                        + Sql.table(schema, "pt_2")
                        + " PARTITION OF "
                        + t
                        + " FOR VALUES FROM (1500) TO (MAXVALUE)",
                "INSERT INTO " + t + " SELECT g, 'v' || g FROM generate_series(1, 3000) g",
                "ANALYZE " + t);
        try (Connection c = PgTestDatabase.open()) {
            List<TableInfo> tables = PostgresCatalog.discover(c, "db", schema, List.of(), null);
            assertThat(tables).extracting(TableInfo::table).containsExactly("pt");
            TableInfo table = tables.get(0);
            assertThat(SplitPlanner.estimateRows(c, table)).isEqualTo(3000);
            List<PostgresSplit> splits = SplitPlanner.snapshotSplits(c, table, null, 500, 2);
            assertThat(splits).hasSize(6);
            List<Row> rows = new ArrayList<>();
            for (PostgresSplit split : splits) {
                Output output = new Output();
                read(split.withId("pt#" + rows.size()), Long.MAX_VALUE, output);
                rows.addAll(output.rows());
            }
            assertThat(rows)
                    .extracting(r -> (Integer) r.value(0))
                    .containsExactlyElementsOf(
                            java.util.stream.IntStream.rangeClosed(1, 3000).boxed().toList());
        }
    }

    @Test
    void connectionErrorsNameTheServerButNotThePassword() {
        PostgresConnectionConfig good = PgTestDatabase.connection();
        PostgresConnectionConfig wrong =
                new PostgresConnectionConfig(
                        good.host(),
                        good.port(),
                        good.database(),
                        good.user(),
                        new Secret("s3cr3t-pw"),
                        "disable");
        assertThatThrownBy(wrong::connect)
                .isInstanceOf(IOException.class)
                .hasMessageContaining(good.host() + ":" + good.port())
                .hasMessageContaining("database \"" + good.database() + "\"")
                .hasMessageContaining("user \"" + good.user() + "\"")
                .hasMessageContaining("password authentication failed")
                .hasMessageNotContaining("s3cr3t-pw");
        assertThat(wrong.toString()).doesNotContain("s3cr3t-pw");
        PostgresConnectionConfig closed =
                new PostgresConnectionConfig(
                        "127.0.0.1", 1, "db", "u", new Secret("s3cr3t-pw"), "disable");
        assertThatThrownBy(closed::connect)
                .hasMessageContaining("Could not connect to PostgreSQL at 127.0.0.1:1")
                .hasMessageNotContaining("s3cr3t-pw");
    }

    /**
     * In a continuous run a window split's opening names the transactions its snapshot saw in
     * progress: cancelled while it read, the split commits its opening with its last key, and the
     * rows those transactions wrote in the part it read are read as late commits ({@link
     * Frontier}). On the first version the opening named none, and such a row was never read.
     */
    @Test
    void aWindowSplitsOpeningNamesTheTransactionsItsSnapshotSawInProgress() throws Exception {
        String t = Sql.table(schema, "items");
        TableInfo table = items("(1, 11)");
        try (Connection writer = PgTestDatabase.open();
                PostgresSplitReader reader =
                        new PostgresSplitReader(PgTestDatabase.connection(), true)) {
            writer.setAutoCommit(false);
            long xid = insert(writer, "INSERT INTO " + t + " VALUES (2, 12)");
            PgTestDatabase.exec("SELECT txid_current()"); // a later transaction ends: xid in xip
            reader.handleSplitsChanges(
                    new SplitsAddition<>(
                            List.of(
                                    PostgresSplit.fresh(
                                            "w#1",
                                            table,
                                            null,
                                            null,
                                            new CursorWindow("10", "20", false)))));
            RecordsWithSplitIds<ReadRecord> batch = reader.fetch();
            assertThat(batch.nextSplit()).isEqualTo("w#1");
            ReadRecord opening = batch.nextRecordFromSplit();
            String entry =
                    io.skippr.core.record.ReadPositions.openingEntry(
                            ((io.skippr.core.record.ReadPosition) opening.record()).position());
            assertThat(ReadEntry.parse(entry).xids()).contains(xid);
            writer.rollback();
        }
    }

    /**
     * Rows a transaction in progress wrote inside savepoints (as ORMs' nested transactions and
     * PL/pgSQL exception blocks do) carry the savepoint's own id in {@code xmin}, which {@code
     * txid_current_snapshot()} does not list: a savepoint released and one still open are read late
     * with the transaction's own row, a savepoint rolled back is not. Before, only the row written
     * outside the savepoints was read late; the two others were lost.
     */
    @Test
    void rowsWrittenInSavepointsOfATransactionInProgressAreReadLate() throws Exception {
        String t = Sql.table(schema, "items");
        TableInfo table = items("(1, 11)");
        Output window = new Output();
        try (Connection writer = PgTestDatabase.open()) {
            PgTestDatabase.execIn(writer, "SET application_name = 'app'");
            writer.setAutoCommit(false);
            PgTestDatabase.execIn(
                    writer,
                    "INSERT INTO " + t + " VALUES (2, 12)",
                    "SAVEPOINT a",
                    "INSERT INTO " + t + " VALUES (3, 13)",
                    "RELEASE SAVEPOINT a",
                    "SAVEPOINT b",
                    "INSERT INTO " + t + " VALUES (9, 19)",
                    "ROLLBACK TO SAVEPOINT b",
                    "SAVEPOINT c",
                    "INSERT INTO " + t + " VALUES (4, 14)");
            PgTestDatabase.exec(
                    "SELECT txid_current()"); // a later transaction ends: all below xmax
            assertThat(
                            read(
                                    PostgresSplit.fresh(
                                            "w#1",
                                            table,
                                            null,
                                            null,
                                            new CursorWindow("10", "20", false)),
                                    Long.MAX_VALUE,
                                    window))
                    .isNull();
            writer.commit();
        }
        assertThat(keys(window)).containsExactly(1L);
        Output late = lateRead(table, window);
        assertThat(keys(late)).as("rows read late, each once").containsExactly(2L, 3L, 4L);
    }

    /**
     * A window split restored after a transaction its first snapshot saw in progress committed: the
     * restored read takes that transaction's rows after its last key, so its position leaves late
     * only its rows up to that key (and the rows of the band of ids given out meanwhile, the same
     * way). Before, the position named the transaction over the whole key range, and the late read
     * loaded its row after the last key a second time.
     */
    @Test
    void aRestoredWindowSplitLeavesLateOnlyWhatItsFirstSnapshotCouldNotSee() throws Exception {
        String t = Sql.table(schema, "items");
        TableInfo table = items("(1, 11), (3, 13), (5, 15), (7, 17)");
        PostgresSplit window =
                PostgresSplit.fresh("w#1", table, null, null, new CursorWindow("10", "20", false));
        Output first = new Output();
        PostgresSplit restored;
        try (Connection writer = PgTestDatabase.open();
                Connection begun = PgTestDatabase.open()) {
            for (Connection app : List.of(writer, begun)) { // not a source's own sessions
                PgTestDatabase.execIn(app, "SET application_name = 'app'");
                app.setAutoCommit(false);
            }
            PgTestDatabase.execIn(writer, "INSERT INTO " + t + " VALUES (2, 12), (6, 16)");
            PgTestDatabase.execIn(begun, "SELECT now()");
            restored = read(window, 2, first);
            writer.commit();
            PgTestDatabase.execIn(begun, "INSERT INTO " + t + " VALUES (0, 14), (8, 18)");
            begun.commit();
        }
        assertThat(keys(first)).containsExactly(1L, 3L);
        Output rest = new Output();
        assertThat(read(restored, Long.MAX_VALUE, rest)).isNull();
        assertThat(keys(rest)).containsExactly(5L, 6L, 7L, 8L);

        Output late = lateRead(table, rest);
        assertThat(keys(late)).as("rows read late, each once").containsExactly(0L, 2L);
    }

    /**
     * A late-commit split restored after a transaction it could not see committed: the restored
     * read takes that transaction's rows after its last key, and its position leaves late only its
     * rows up to that key.
     */
    @Test
    void aRestoredLateCommitSplitLeavesLateOnlyWhatItsFirstSnapshotCouldNotSee() throws Exception {
        String t = Sql.table(schema, "items");
        TableInfo table = items();
        Output first = new Output();
        Output rest = new Output();
        try (Connection early = PgTestDatabase.open();
                Connection late = PgTestDatabase.open()) {
            early.setAutoCommit(false);
            late.setAutoCommit(false);
            long x = insert(early, "INSERT INTO " + t + " VALUES (1, 11), (3, 13), (5, 15)");
            long y = insert(late, "INSERT INTO " + t + " VALUES (2, 12), (6, 16)");
            early.commit();
            PostgresSplit split =
                    PostgresSplit.lateCommits(
                            "l#1", table, List.of(new ReadEntry("20", null, null, List.of(x, y))));
            PostgresSplit restored = read(split, 2, first);
            late.commit();
            assertThat(read(restored, Long.MAX_VALUE, rest)).isNull();
        }
        assertThat(keys(first)).containsExactly(1L, 3L);
        assertThat(keys(rest)).containsExactly(5L, 6L);
        Output again = new Output();
        assertThat(read(PostgresSplit.lateCommits("l#2", table, positions(rest)), 99, again))
                .isNull();
        assertThat(keys(again)).as("rows read late, each once").containsExactly(2L);
    }

    /**
     * The sessions a read's band waits for come from {@code pg_locks} and {@code pg_stat_activity},
     * which a role without privileges reads too (as the PostgreSQL page says): a session of another
     * application in a transaction is listed, a source's own session ({@code skippr-read}, which
     * only reads) is not.
     */
    @Test
    void aRoleWithoutPrivilegesListsOtherSessionsInATransactionButNotASourcesOwn()
            throws Exception {
        String role = schema + "_reader";
        PgTestDatabase.exec("CREATE ROLE " + Sql.quote(role) + " LOGIN PASSWORD 'not-a-secret'");
        try (Connection app = PgTestDatabase.open();
                Connection source = PgTestDatabase.open();
                Connection unprivileged =
                        PgTestDatabase.connectionAs(role, "not-a-secret").connect()) {
            PgTestDatabase.execIn(app, "SET application_name = 'app'");
            app.setAutoCommit(false);
            source.setAutoCommit(false);
            String appTransaction = virtualTransaction(app);
            String sourceTransaction = virtualTransaction(source);

            assertThat(Snapshot.running(unprivileged))
                    .contains(appTransaction)
                    .doesNotContain(sourceTransaction);
            app.rollback();
            source.rollback();
        } finally {
            PgTestDatabase.exec("DROP ROLE " + Sql.quote(role));
        }
    }

    /**
     * A split is one COPY, read as fast as the job takes its rows: a {@code statement_timeout} of
     * the role (or database) must not cut it when the job is slower than the timeout, as it never
     * cut a cursor's fetches.
     */
    @Test
    void aStatementTimeoutDoesNotCutASlowRead() throws Exception {
        String role = schema + "_timed";
        String t = Sql.table(schema, "wide");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id bigint PRIMARY KEY, v text)",
                // more than the socket buffers hold, so the server waits for the reader
                "INSERT INTO "
                        + t
                        + " SELECT i, repeat('x', 200) FROM generate_series(1, 100000) i",
                "CREATE ROLE " + Sql.quote(role) + " LOGIN PASSWORD 'not-a-secret'",
                "ALTER ROLE " + Sql.quote(role) + " SET statement_timeout = '300ms'",
                "GRANT USAGE ON SCHEMA " + Sql.quote(schema) + " TO " + Sql.quote(role),
                "GRANT SELECT ON " + t + " TO " + Sql.quote(role));
        try {
            TableInfo table;
            try (Connection c = PgTestDatabase.open()) {
                table = PostgresCatalog.describe(c, schema, "wide", null);
            }
            long rows = 0;
            try (PostgresSplitReader reader =
                    new PostgresSplitReader(
                            PgTestDatabase.connectionAs(role, "not-a-secret"), false)) {
                reader.handleSplitsChanges(
                        new SplitsAddition<>(
                                List.of(PostgresSplit.fresh("w#1", table, null, null, null))));
                boolean paused = false;
                while (true) {
                    RecordsWithSplitIds<ReadRecord> batch = reader.fetch();
                    while (batch.nextSplit() != null) {
                        while (batch.nextRecordFromSplit() != null) {
                            rows++;
                        }
                    }
                    if (batch.finishedSplits().contains("w#1")) {
                        break;
                    }
                    if (!paused) { // a job slower than the timeout: what is timed is the pause
                        Thread.sleep(1000);
                        paused = true;
                    }
                }
            }
            assertThat(rows).isEqualTo(100000);
        } finally {
            PgTestDatabase.exec("DROP OWNED BY " + Sql.quote(role), "DROP ROLE " + Sql.quote(role));
        }
    }

    /** The virtual transaction id of {@code c}'s transaction, which this begins. */
    private static String virtualTransaction(Connection c) throws Exception {
        try (java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "SELECT virtualxid FROM pg_locks WHERE locktype = 'virtualxid'"
                                        + " AND pid = pg_backend_pid()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /**
     * A table {@code items (id bigint PRIMARY KEY, v bigint)} holding {@code values} (SQL VALUES
     * text; none when empty), as the catalog describes it with cursor column {@code v}.
     */
    private TableInfo items(String... values) throws Exception {
        String t = Sql.table(schema, "items");
        PgTestDatabase.exec("CREATE TABLE " + t + " (id bigint PRIMARY KEY, v bigint)");
        for (String v : values) {
            PgTestDatabase.exec("INSERT INTO " + t + " VALUES " + v);
        }
        try (Connection c = PgTestDatabase.open()) {
            return PostgresCatalog.describe(c, schema, "items", "v");
        }
    }

    /** Inserts in {@code c}'s transaction; returns its id, as {@code xmin} holds it. */
    private static long insert(Connection c, String sql) throws Exception {
        try (java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(sql + " RETURNING xmin::text::int8")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The entries of the positions {@code output} holds. */
    private static List<ReadEntry> positions(Output output) {
        List<ReadEntry> reads = new ArrayList<>();
        for (io.skippr.core.record.SourceRecord r : output.records) {
            if (r instanceof io.skippr.core.record.ReadPosition p) {
                io.skippr.core.record.ReadPositions.entries(p.position())
                        .forEach(line -> reads.add(ReadEntry.parse(line)));
            }
        }
        return reads;
    }

    private static List<Long> keys(Output output) {
        return output.rows().stream().map(r -> ((Number) r.values()[0]).longValue()).toList();
    }
}
