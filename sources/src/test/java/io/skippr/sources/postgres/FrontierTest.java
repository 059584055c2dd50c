package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.ReadPositions;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where a run starts from positions continuous runs committed in parts: every read up to the top of
 * the chained windows, except the key ranges and windows no committed entry covers.
 */
class FrontierTest {
    private String schema;
    private TableInfo table;

    @BeforeEach
    void createTable() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_frontier_");
        String t = Sql.table(schema, "items");
        PgTestDatabase.exec("CREATE TABLE " + t + " (id bigint PRIMARY KEY, v bigint)");
        try (Connection c = PgTestDatabase.open()) {
            table = PostgresCatalog.describe(c, schema, "items", "v");
        }
    }

    @AfterEach
    void dropSchema() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    private static String window(String after, String upTo, Long from, Long to, Long... xids) {
        return ReadEntry.chained(
                        new CursorWindow(after, upTo, false), from, to, List.of(xids), null)
                .toLine();
    }

    private String progress(String opening, long lastKey) {
        return ReadPositions.progress(opening, table.stream() + "|id=" + lastKey + "|v=" + lastKey);
    }

    private Frontier of(List<String> entries) throws Exception {
        try (Connection c = PgTestDatabase.open()) {
            return Frontier.of(c, table, ReadPositions.of(entries));
        }
    }

    /**
     * A --once run read up to 10; a continuous run then read the window (10, 50] in three key
     * ranges, the first whole, the second up to key 29 when it was cancelled, the third not at all;
     * its window (50, 70] committed nothing; (70, 90] is whole.
     */
    @Test
    void aRunStartsAfterTheChainAndReadsWhatNoEntryCovers() throws Exception {
        List<String> entries = new ArrayList<>();
        entries.add(new ReadEntry("10", null, null, List.of()).toLine()); // the --once run's top
        entries.add(window("10", "50", null, 20L, 111L, 222L));
        entries.add(window("10", "50", null, 20L, 222L)); // its late commits read: 111 committed
        String second = window("10", "50", 20L, 40L, 333L);
        entries.add(progress(second, 25));
        entries.add(progress(second, 29)); // a later checkpoint
        entries.add(window("70", "90", null, null));

        Frontier read = of(entries);

        assertThat(read.top).isEqualTo("90");
        assertThat(read.gaps).containsExactly(new CursorWindow("50", "70", false));
        assertThat(read.rest)
                .extracting(
                        s ->
                                List.of(
                                        s.window(),
                                        String.valueOf(s.keyFrom()),
                                        String.valueOf(s.keyTo())))
                .containsExactly(List.of(new CursorWindow("10", "50", false), "30", "null"));
        assertThat(read.late)
                .containsExactlyInAnyOrder(
                        ReadEntry.chained(
                                new CursorWindow("10", "50", false),
                                null,
                                20L,
                                List.of(222L),
                                null),
                        ReadEntry.chained(
                                new CursorWindow("10", "50", false),
                                20L,
                                30L,
                                List.of(333L),
                                null));
    }

    /** A split read to its end makes its progress entries of earlier checkpoints moot. */
    @Test
    void aReadToItsEndCoversItsProgress() throws Exception {
        List<String> entries =
                List.of(
                        ReadEntry.chained(
                                        new CursorWindow(null, "40", true),
                                        null,
                                        null,
                                        List.of(),
                                        null)
                                .toLine(),
                        progress(
                                ReadEntry.chained(
                                                new CursorWindow(null, "40", true),
                                                null,
                                                null,
                                                List.of(),
                                                null)
                                        .toLine(),
                                12));
        Frontier read = of(entries);
        assertThat(read.top).isEqualTo("40");
        assertThat(read.rest).isEmpty();
        assertThat(read.gaps).isEmpty();
        assertThat(read.late).isEmpty();
    }

    /** Entries of a --once run only: its highest top, its late reads, nothing below. */
    @Test
    void aOnceRunsEntriesSayEverythingUpToTheirTopWasRead() throws Exception {
        Frontier read =
                of(
                        List.of(
                                new ReadEntry("40", null, 100L, List.of(7L)).toLine(),
                                new ReadEntry("40", 100L, null, List.of()).toLine()));
        assertThat(read.top).isEqualTo("40");
        assertThat(read.rest).isEmpty();
        assertThat(read.gaps).isEmpty();
        assertThat(read.late).containsExactly(new ReadEntry("40", null, 100L, List.of(7L)));
    }

    /**
     * A --once run read two key ranges up to 40 while transaction 7 was in progress; a continuous
     * run then read its rows (7 has ended). The union a continuous run commits to holds both
     * positions: the read is no longer late. Before the late read kept the read's name, its entry
     * named the whole key range, the first read stayed late and a --once run read 7's rows again.
     */
    @Test
    void aLateReadOfAOnceRunsReadsEndsItInTheUnionOfBoth() throws Exception {
        String once =
                ReadPositions.of(
                        List.of(
                                new ReadEntry("40", null, 100L, List.of(7L)).toLine(),
                                new ReadEntry("40", 100L, null, List.of()).toLine()));
        List<ReadEntry> late;
        try (Connection c = PgTestDatabase.open()) {
            late = Frontier.of(c, table, once).late;
        }
        assertThat(late).containsExactly(new ReadEntry("40", null, 100L, List.of(7L)));

        PostgresSplitReaderTest.Output output = new PostgresSplitReaderTest.Output();
        PostgresSplitReaderTest.read(
                PostgresSplit.lateCommits("late#0", table, late), Long.MAX_VALUE, output);
        String read =
                output.records.stream()
                        .filter(io.skippr.core.record.ReadPosition.class::isInstance)
                        .map(r -> ((io.skippr.core.record.ReadPosition) r).position())
                        .reduce(ReadPositions::union)
                        .orElseThrow();

        Frontier after;
        try (Connection c = PgTestDatabase.open()) {
            after = Frontier.of(c, table, ReadPositions.union(once, read));
        }
        assertThat(after.late).isEmpty();
        assertThat(after.top).isEqualTo("40");
    }

    /**
     * A compacted position reads as the position: the same top, late reads, rest and gaps, from
     * fewer entries. Whole windows join the chain and the --once run's top; a window with a
     * transaction still open, one with a split read in part besides (its part read has late commits
     * to read), one read in part only and the windows after a gap stay.
     */
    @Test
    void aCompactedPositionReadsAsThePosition() throws Exception {
        List<String> entries = new ArrayList<>();
        entries.add(new ReadEntry("10", null, 100L, List.of()).toLine()); // the --once run's
        entries.add(new ReadEntry("10", 100L, null, List.of(5L)).toLine());
        entries.add(new ReadEntry("10", 100L, null, List.of()).toLine()); // 5 read since
        entries.add(window("10", "20", null, 50L));
        entries.add(window("10", "20", 50L, null, 8L));
        entries.add(window("10", "20", 50L, null)); // 8 read since
        String open = window("20", "30", null, null);
        entries.add(progress(open, 12));
        entries.add(open); // read to its end later
        entries.add(window("30", "40", null, null));
        String other = progress(window("30", "40", 100L, null, 11L), 120); // a split re-planned
        entries.add(other);
        entries.add(window("40", "50", null, null, 9L)); // 9 still open
        entries.add(window("50", "60", null, null));
        entries.add( // its band of ids closed by a later late read
                ReadEntry.chained(
                                new CursorWindow("60", "70", false),
                                null,
                                null,
                                List.of(),
                                new XidBand(900, List.of("3/1")))
                        .toLine());
        entries.add(window("60", "70", null, null));
        String part = window("70", "80", null, null);
        entries.add(progress(part, 33));
        entries.add(progress(part, 41));
        entries.add(window("90", "95", null, null)); // after the gap (80, 90]
        entries.add(window("95", "99", null, null));

        String position = ReadPositions.of(entries);
        String compacted = PositionCompaction.compact(position);

        assertThat(ReadPositions.entries(compacted))
                .containsExactlyInAnyOrder(
                        new ReadEntry("30", null, null, List.of()).toLine(),
                        window("30", "40", null, null),
                        other,
                        window("40", "50", null, null, 9L),
                        window("50", "70", null, null),
                        progress(part, 33),
                        progress(part, 41),
                        window("90", "99", null, null));
        Frontier before = of(entries);
        Frontier after = of(List.copyOf(ReadPositions.entries(compacted)));
        assertThat(after.top).isEqualTo(before.top).isEqualTo("99");
        assertThat(after.late).isEqualTo(before.late);
        assertThat(after.rest).isEqualTo(before.rest);
        assertThat(after.gaps).isEqualTo(before.gaps);
        assertThat(PositionCompaction.compact(compacted)).isEqualTo(compacted);
        String banded =
                ReadEntry.chained(
                                new CursorWindow("99", "101", false),
                                null,
                                null,
                                List.of(),
                                new XidBand(900, List.of("3/1")))
                        .toLine();
        assertThat(
                        ReadPositions.entries(
                                PositionCompaction.compact(
                                        ReadPositions.of(
                                                List.of(window("95", "99", null, null), banded)))))
                .as("a window whose band is open stays")
                .containsExactlyInAnyOrder(window("95", "99", null, null), banded);
        assertThat(PositionCompaction.compact(ReadPositions.of(List.of("{\"file\": \"a\"}"))))
                .as("a position of another source")
                .isNull();
    }

    /**
     * A continuous run read a window in part (keys up to 81) while a transaction that inserted key
     * 50 into the window was in progress, then stopped; the transaction committed. A run from the
     * committed progress reads key 50 as a late commit of the part read. Before the opening named
     * the transactions the read's snapshot could not see, no run read key 50 again: it was lost.
     */
    @Test
    void aSplitReadInPartHasItsLateCommitsRead() throws Exception {
        String t = Sql.table(schema, "items");
        PgTestDatabase.exec(
                "INSERT INTO " + t + " SELECT g, 15 FROM generate_series(1, 100) g WHERE g <> 50");
        PostgresSplitReaderTest.Output output = new PostgresSplitReaderTest.Output();
        try (Connection writer = PgTestDatabase.open()) {
            writer.setAutoCommit(false);
            try (var st = writer.createStatement()) {
                st.execute("INSERT INTO " + t + " VALUES (50, 15)");
            }
            PostgresSplitReaderTest.read(
                    PostgresSplit.fresh(
                            "w#0", table, null, null, new CursorWindow("10", "20", false)),
                    82, // its opening and 81 rows
                    output,
                    true);
            writer.commit();
        }
        String opening =
                output.records.stream()
                        .filter(io.skippr.core.record.ReadPosition.class::isInstance)
                        .map(r -> ((io.skippr.core.record.ReadPosition) r).position())
                        .map(ReadPositions::openingEntry)
                        .findFirst()
                        .orElseThrow();
        List<io.skippr.core.record.Row> rows = output.rows();
        assertThat(rows).hasSize(81);
        String last = rows.get(rows.size() - 1).position();

        Frontier read = of(List.of(ReadPositions.progress(opening, last)));

        List<Long> keys = new ArrayList<>();
        for (PostgresSplit split : read.rest) {
            PostgresSplitReaderTest.Output rest = new PostgresSplitReaderTest.Output();
            PostgresSplitReaderTest.read(split, Long.MAX_VALUE, rest);
            rest.rows().forEach(r -> keys.add((Long) r.value(0)));
        }
        assertThat(read.late).as("late reads of the part read").isNotEmpty();
        PostgresSplitReaderTest.Output late = new PostgresSplitReaderTest.Output();
        PostgresSplitReaderTest.read(
                PostgresSplit.lateCommits("late#0", table, read.late), Long.MAX_VALUE, late);
        late.rows().forEach(r -> keys.add((Long) r.value(0)));
        keys.sort(null);
        List<Long> expected = new ArrayList<>();
        expected.add(50L);
        for (long k = 83; k <= 100; k++) {
            expected.add(k);
        }
        assertThat(keys).containsExactlyElementsOf(expected);
    }

    /**
     * As {@link #aSplitReadInPartHasItsLateCommitsRead}, in a table keyed by text (read as one
     * split per window): the run that reads the rest of the window names the transaction in its
     * position, and the run after it reads key k050. Before, no run read it again.
     */
    @Test
    void aSplitOfATextKeyedTableReadInPartHasItsLateCommitsRead() throws Exception {
        String t = Sql.table(schema, "named");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (name text PRIMARY KEY, v bigint)",
                "INSERT INTO "
                        + t
                        + " SELECT 'k' || lpad(g::text, 3, '0'), 15 FROM generate_series(1, 100) g"
                        + " WHERE g <> 50");
        TableInfo named;
        try (Connection c = PgTestDatabase.open()) {
            named = PostgresCatalog.describe(c, schema, "named", "v");
        }
        PostgresSplitReaderTest.Output first = new PostgresSplitReaderTest.Output();
        try (Connection writer = PgTestDatabase.open()) {
            writer.setAutoCommit(false);
            try (var st = writer.createStatement()) {
                st.execute("INSERT INTO " + t + " VALUES ('k050', 15)");
            }
            PostgresSplitReaderTest.read(
                    PostgresSplit.fresh(
                            "w#0", named, null, null, new CursorWindow("10", "20", false)),
                    82,
                    first,
                    true);
            writer.commit();
        }
        List<io.skippr.core.record.Row> rows = first.rows();
        String progress =
                ReadPositions.progress(
                        ReadPositions.openingEntry(positions(first).get(0)),
                        rows.get(rows.size() - 1).position());

        Frontier second;
        try (Connection c = PgTestDatabase.open()) {
            second = Frontier.of(c, named, ReadPositions.of(List.of(progress)));
        }
        assertThat(second.rest).hasSize(1);
        PostgresSplitReaderTest.Output rest = new PostgresSplitReaderTest.Output();
        PostgresSplitReaderTest.read(second.rest.get(0), Long.MAX_VALUE, rest);
        assertThat(rest.rows()).extracting(r -> r.value(0)).startsWith("k083").endsWith("k100");

        Frontier third;
        try (Connection c = PgTestDatabase.open()) {
            third = Frontier.of(c, named, positions(rest).get(0));
        }
        PostgresSplitReaderTest.Output late = new PostgresSplitReaderTest.Output();
        PostgresSplitReaderTest.read(
                PostgresSplit.lateCommits("late#0", named, third.late), Long.MAX_VALUE, late);
        assertThat(late.rows()).extracting(r -> r.value(0)).containsExactly("k050");
    }

    private static List<String> positions(PostgresSplitReaderTest.Output output) {
        return output.records.stream()
                .filter(io.skippr.core.record.ReadPosition.class::isInstance)
                .map(r -> ((io.skippr.core.record.ReadPosition) r).position())
                .toList();
    }

    /**
     * A late-commit split cancelled while it read (a continuous run stopped, a checkpoint that
     * committed part of it) committed its opening, with the transactions its snapshot saw in
     * progress, and the key of its last row. It reads in key order, so of the transactions its
     * snapshot saw committed it read the rows up to that key: the next run reads the rest of them,
     * and every row of those it saw in progress. On the first version the frontier ignored that
     * progress and the next run read the rows read so far again (keys 1 to 3 twice in {@code
     * append} mode).
     */
    @Test
    void aLateCommitSplitCancelledWhileItReadIsReadOnAfterItsLastKey() throws Exception {
        long seen = insert("(1, 20), (2, 20), (3, 20), (4, 20), (5, 20)");
        long inProgress = insert("(0, 30), (7, 30)");
        ReadEntry read =
                ReadEntry.chained(
                        new CursorWindow("10", "50", false),
                        null,
                        null,
                        List.of(seen, inProgress),
                        null);
        String opening = ReadEntry.lateOpening(List.of(read), List.of(inProgress), 0L);

        Frontier frontier = of(List.of(read.toLine(), progress(opening, 2), progress(opening, 3)));

        assertThat(frontier.late)
                .singleElement()
                .satisfies(l -> assertThat(l.identity()).isEqualTo(read.identity()));
        assertThat(keysRead(frontier.late)).containsExactly(0L, 4L, 5L, 7L);
    }

    /**
     * The same in a table without a key, read in the order of its rows' addresses: the next run
     * reads on after the last row's address. Before, a table without a key had no such order and
     * the next run read rows 1 to 3 again.
     */
    @Test
    void aLateCommitSplitOfATableWithoutKeyCancelledWhileItReadIsReadOnAfterItsLastRow()
            throws Exception {
        PgTestDatabase.exec("CREATE TABLE " + Sql.table(schema, "log") + " (id bigint, v bigint)");
        TableInfo log;
        try (Connection c = PgTestDatabase.open()) {
            log = PostgresCatalog.describe(c, schema, "log", "v");
        }
        table = log;
        long seen = insert("log", "(1, 20), (2, 20), (3, 20), (4, 20), (5, 20)");
        long inProgress = insert("log", "(0, 30), (7, 30)");
        ReadEntry read =
                ReadEntry.chained(
                        new CursorWindow("10", "50", false),
                        null,
                        null,
                        List.of(seen, inProgress),
                        null);
        String opening = ReadEntry.lateOpening(List.of(read), List.of(inProgress), 0L);
        String third = address("log", 3);

        Frontier frontier = of(List.of(read.toLine(), ReadPositions.progress(opening, third)));

        assertThat(keysRead(frontier.late)).containsExactly(4L, 5L, 0L, 7L);
    }

    /**
     * The same in a partitioned table without a key, read partition by partition: a split stopped
     * in the second partition read the first one whole. Before, the first partition's rows were
     * read again, because their file is not the last row's.
     */
    @Test
    void aLateCommitSplitOfAPartitionedTableWithoutKeyIsReadOnAfterItsLastRow() throws Exception {
        String log = Sql.table(schema, "plog");
        PgTestDatabase.exec(
                "CREATE TABLE " + log + " (id bigint, v bigint, part int) PARTITION BY LIST (part)",
                "CREATE TABLE "
                        + Sql.table(schema, "plog_1")
                        + " PARTITION OF "
                        + log
                        + " FOR VALUES IN (1)",
                "CREATE TABLE "
                        + Sql.table(schema, "plog_2")
                        + " PARTITION OF "
                        + log
                        + " FOR VALUES IN (2)");
        try (Connection c = PgTestDatabase.open()) {
            table = PostgresCatalog.describe(c, schema, "plog", "v");
        }
        long seen = insert("plog", "(1, 20, 1), (2, 20, 1), (3, 20, 1), (4, 20, 2), (5, 20, 2)");
        long inProgress = insert("plog", "(0, 30, 1), (7, 30, 2)");
        ReadEntry read =
                ReadEntry.chained(
                        new CursorWindow("10", "50", false),
                        null,
                        null,
                        List.of(seen, inProgress),
                        null);
        String opening = ReadEntry.lateOpening(List.of(read), List.of(inProgress), 0L);

        Frontier frontier =
                of(List.of(read.toLine(), ReadPositions.progress(opening, address("plog", 4))));

        assertThat(keysRead(frontier.late)).containsExactly(0L, 5L, 7L);
    }

    /** The position of the row with {@code id} of table {@code name}, by its address. */
    private String address(String name, long id) throws Exception {
        try (Connection c = PgTestDatabase.open();
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "SELECT tableoid::text, ctid::text,"
                                        + " pg_relation_filenode(tableoid)::text FROM "
                                        + Sql.table(schema, name)
                                        + " WHERE id = "
                                        + id)) {
            rs.next();
            return name
                    + "|"
                    + RowOrder.addressPosition(
                            List.of(rs.getString(1), rs.getString(2), rs.getString(3)))
                    + "|v=20";
        }
    }

    /**
     * A late-commit split of reads that an earlier such split read in part, cancelled in its turn:
     * what both read is not read again, though the second read below the first one's last key.
     */
    @Test
    void twoLateCommitSplitsCancelledInTurnLeaveOnlyWhatNeitherRead() throws Exception {
        long first = insert("(1, 20), (2, 20), (3, 20), (4, 20), (5, 20)");
        long second = insert("(0, 30), (6, 30), (7, 30)");
        ReadEntry read =
                ReadEntry.chained(
                        new CursorWindow("10", "50", false),
                        null,
                        null,
                        List.of(first, second),
                        null);
        String opening = ReadEntry.lateOpening(List.of(read), List.of(second), 0L);
        Frontier once = of(List.of(read.toLine(), progress(opening, 3)));
        // the next split reads keys 0, 4, 5, 6, 7: it stopped after key 0
        String again = ReadEntry.lateOpening(once.late, List.of(), 0L);

        Frontier frontier = of(List.of(read.toLine(), progress(opening, 3), progress(again, 0)));

        assertThat(keysRead(frontier.late)).containsExactly(4L, 5L, 6L, 7L);
    }

    /**
     * A window split cancelled while it read commits its opening with the transactions its snapshot
     * saw in progress: their rows in the part it read are late commits, read once. A late read of
     * them that finished keeps only the transactions still in progress.
     */
    @Test
    void theLateCommitsOfAWindowReadInPartAreReadOnce() throws Exception {
        String opening = window("10", "50", 20L, 40L, 333L, 444L);
        Frontier first = of(List.of(progress(opening, 29)));
        assertThat(first.late)
                .containsExactly(
                        ReadEntry.chained(
                                new CursorWindow("10", "50", false),
                                20L,
                                30L,
                                List.of(333L, 444L),
                                null));
        String lateRead = first.late.get(0).keeping(List.of(444L), null).toLine(); // 333 committed

        Frontier next = of(List.of(progress(opening, 29), lateRead));

        assertThat(next.late)
                .containsExactly(
                        ReadEntry.chained(
                                new CursorWindow("10", "50", false),
                                20L,
                                30L,
                                List.of(444L),
                                null));
    }

    /** Inserts {@code values} in one transaction; returns its id as its rows' {@code xmin}. */
    private long insert(String values) throws Exception {
        return insert("items", values);
    }

    /**
     * Inserts {@code values} into {@code name} in one transaction; returns its id (as {@code xmin}
     * holds it: this database's ids are far below 2^32; a partitioned table returns no xmin).
     */
    private long insert(String name, String values) throws Exception {
        try (Connection c = PgTestDatabase.open();
                java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "WITH i AS (INSERT INTO "
                                        + Sql.table(schema, name)
                                        + " VALUES "
                                        + values
                                        + " RETURNING 1) SELECT txid_current() FROM i LIMIT 1")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The keys a late-commit split of {@code late} reads, in order. */
    private List<Long> keysRead(List<ReadEntry> late) throws Exception {
        PostgresSplitReaderTest.Output output = new PostgresSplitReaderTest.Output();
        assertThat(
                        PostgresSplitReaderTest.read(
                                PostgresSplit.lateCommits("l#1", table, late),
                                Long.MAX_VALUE,
                                output))
                .isNull();
        return output.rows().stream().map(r -> ((Number) r.values()[0]).longValue()).toList();
    }
}
