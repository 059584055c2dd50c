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
        return ReadEntry.chained(new CursorWindow(after, upTo, false), from, to, List.of(xids))
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
                                new CursorWindow("10", "50", false), null, 20L, List.of(222L)),
                        ReadEntry.chained(
                                new CursorWindow("10", "50", false), 20L, 30L, List.of(333L)));
    }

    /** A split read to its end makes its progress entries of earlier checkpoints moot. */
    @Test
    void aReadToItsEndCoversItsProgress() throws Exception {
        List<String> entries =
                List.of(
                        ReadEntry.chained(new CursorWindow(null, "40", true), null, null, List.of())
                                .toLine(),
                        progress(
                                ReadEntry.chained(
                                                new CursorWindow(null, "40", true),
                                                null,
                                                null,
                                                List.of())
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
     * transaction still open, one read in part and the windows after a gap stay.
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
        entries.add(window("40", "50", null, null, 9L)); // 9 still open
        entries.add(window("50", "60", null, null));
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
                        new ReadEntry("40", null, null, List.of()).toLine(),
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
        assertThat(PositionCompaction.compact(ReadPositions.of(List.of("{\"file\": \"a\"}"))))
                .as("a position of another source")
                .isNull();
    }
}
