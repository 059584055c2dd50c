package io.skippr.sinks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Iceberg committer's recovery checklist, on a real SkipprLake (embedded catalog, local
 * warehouse): what a replay, a partial commit or a bounded run leaves in the tables.
 */
class IcebergCommitterITCase {
    @TempDir Path dir;

    private TestLake lake() {
        return new TestLake(dir.resolve("lake"));
    }

    private static long sumOfIds(List<Record> rows) {
        return rows.stream().mapToLong(r -> (Long) r.getField("id")).sum();
    }

    @Test
    void aReplayedCommittableIsANoOpEvenForANewCommitterAfterARestore() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings settings = lake.settings(false, 1 << 20, false);
        IcebergCommittable committable =
                new IcebergCommittable(
                        settings.run(),
                        7,
                        List.copyOf(TestLake.write(settings, TestLake.ORDERS, 1, 101)));

        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        assertThat(committer.commit(committable)).as("first commit").isTrue();
        assertThat(committer.commit(committable)).as("the same committer replays it").isFalse();
        committer.close();
        IcebergCommitter restored = new IcebergCommitter(settings, "restored");
        assertThat(restored.commit(committable)).as("a committer after a restore").isFalse();
        restored.close();

        List<Record> rows = lake.rows("orders");
        assertThat(rows).hasSize(100);
        assertThat(sumOfIds(rows)).isEqualTo(5050);
        Table table = lake.table("orders");
        assertThat(table.snapshots()).hasSize(1);
        assertThat(table.currentSnapshot().summary())
                .containsEntry(CommitHistory.COMMIT_ID, "p/lake/run-1/checkpoint-7")
                .containsEntry(CommitHistory.ROWS, "100")
                .containsEntry(CommitHistory.BOUNDED, "false");
    }

    @Test
    void aReplayAfterACrashBetweenTwoTablesCommitsOnlyTheMissingTable() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings settings = lake.settings(false, 1 << 20, false);
        StreamSchema items =
                new StreamSchema("OrderItems", TestLake.ORDERS.columns(), List.of("id"), "id");
        List<IcebergWriteResult> orders =
                List.copyOf(TestLake.write(settings, TestLake.ORDERS, 1, 51));
        List<IcebergWriteResult> both = new ArrayList<>(orders);
        both.addAll(TestLake.write(settings, items, 1, 31));
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        // the first attempt died after committing orders, before order_items
        committer.commit(new IcebergCommittable(settings.run(), 3, orders));
        assertThat(committer.commit(new IcebergCommittable(settings.run(), 3, both))).isTrue();
        committer.close();

        assertThat(lake.rows("orders")).hasSize(50);
        assertThat(lake.rows("order_items")).hasSize(30);
        assertThat(lake.table("orders").snapshots()).hasSize(1);
    }

    @Test
    void aBoundedRunCommitsItsCursorWithTheDataAndTheNextRunStartsAfterIt() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings first = lake.settings(true, 1 << 20, false);
        assertThat(first.run()).isEqualTo(1);
        List<IcebergWriteResult> results = new ArrayList<>();
        results.addAll(TestLake.write(first, 0, 2, TestLake.ORDERS, 1, 41));
        results.addAll(TestLake.write(first, 1, 2, TestLake.ORDERS, 41, 61));
        IcebergCommitter committer = new IcebergCommitter(first, "test");
        assertThat(committer.commit(new IcebergCommittable(first.run(), 1, results))).isTrue();
        committer.close();

        assertThat(IcebergSinks.committedPositions(first)).isEqualTo(Map.of("orders", "60"));
        assertThat(lake.table("orders").currentSnapshot().summary())
                .containsEntry(CommitHistory.COMMIT_ID, "p/lake/run-1")
                .containsEntry(CommitHistory.POSITION, "60")
                .containsEntry(CommitHistory.POSITION_TYPE, "INT64");
        assertThat(lake.settings(true, 1 << 20, false).run()).as("the next run").isEqualTo(2);
        assertThat(IcebergSinks.rowsAfterPositions(first)).isZero();

        IcebergSinkSettings continuous = lake.settings(false, 1 << 20, false);
        IcebergCommitter streaming = new IcebergCommitter(continuous, "test");
        for (int checkpoint = 1; checkpoint <= 2; checkpoint++) {
            int from = 41 + checkpoint * 20;
            assertThat(
                            streaming.commit(
                                    new IcebergCommittable(
                                            continuous.run(),
                                            checkpoint,
                                            List.copyOf(
                                                    TestLake.write(
                                                            continuous,
                                                            TestLake.ORDERS,
                                                            from,
                                                            from + 20)))))
                    .isTrue();
        }
        streaming.close();
        assertThat(IcebergSinks.committedPositions(continuous))
                .as("a continuous run's commits do not move where the next run starts")
                .isEqualTo(Map.of("orders", "60"));
        assertThat(IcebergSinks.rowsAfterPositions(continuous))
                .as("the rows a run starting there would load again")
                .isEqualTo(40);
    }

    /**
     * Two streams that map to one table ("Orders" and "orders" both land in orders) keep their own
     * positions: on main the table recorded the highest cursor of both, labelled as the first
     * stream, which could skip rows of the other.
     */
    @Test
    void twoStreamsOfOneTableKeepTheirOwnPositions() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings run = lake.settings(true, 1 << 20, false);
        StreamSchema upper =
                new StreamSchema(
                        "Orders",
                        TestLake.ORDERS.columns(),
                        TestLake.ORDERS.primaryKey(),
                        TestLake.ORDERS.cursorColumn());
        List<IcebergWriteResult> results = new ArrayList<>();
        results.addAll(TestLake.write(run, 0, 2, TestLake.ORDERS, 1, 11));
        results.addAll(TestLake.write(run, 1, 2, upper, 500, 511));
        IcebergCommitter committer = new IcebergCommitter(run, "test");
        assertThat(committer.commit(new IcebergCommittable(run.run(), 1, results))).isTrue();
        committer.close();

        assertThat(IcebergSinks.committedPositions(run))
                .isEqualTo(Map.of("orders", "10", "Orders", "510"));
    }

    /**
     * Expiring every snapshot but the newest (as Athena's VACUUM, or the docs' retention advice,
     * does) keeps where the next run starts, the run numbers and the count of rows after: on main
     * the position lived only in the bounded run's snapshot, so the next run reloaded everything.
     */
    @Test
    void positionsAndRunsSurviveSnapshotExpiry() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings first = lake.settings(true, 1 << 20, false);
        IcebergCommitter committer = new IcebergCommitter(first, "test");
        committer.commit(
                new IcebergCommittable(
                        first.run(),
                        1,
                        List.copyOf(TestLake.write(first, 0, 1, TestLake.ORDERS, 1, 61))));
        committer.close();
        IcebergSinkSettings continuous = lake.settings(false, 1 << 20, false);
        IcebergCommitter streaming = new IcebergCommitter(continuous, "test");
        streaming.commit(
                new IcebergCommittable(
                        continuous.run(),
                        1,
                        List.copyOf(TestLake.write(continuous, TestLake.ORDERS, 61, 81))));
        streaming.close();

        Catalog catalog = lake.catalog().open();
        try {
            catalog.loadTable(first.table("orders"))
                    .expireSnapshots()
                    .expireOlderThan(System.currentTimeMillis() + 1)
                    .retainLast(1)
                    .commit();
        } finally {
            ((java.io.Closeable) catalog).close();
        }

        assertThat(lake.table("orders").snapshots()).hasSize(1);
        assertThat(IcebergSinks.committedPositions(first)).isEqualTo(Map.of("orders", "60"));
        assertThat(IcebergSinks.rowsAfterPositions(first)).isEqualTo(20);
        assertThat(lake.settings(false, 1 << 20, false).run()).as("the next run").isEqualTo(3);
        assertThatThrownBy(() -> lake.settings(true, 1 << 20, false))
                .as("a --once run now would load the continuous run's 20 rows again")
                .hasMessageContaining("continuous runs committed 20 rows into data_sinks.lake");
    }

    /** Each deadletter row as {@code id:data_run}, sorted. */
    private static List<String> deadletters(TestLake lake) throws Exception {
        return lake.rows("skippr_deadletters").stream()
                .map(r -> r.getField("id") + ":" + r.getField("data_run"))
                .sorted()
                .toList();
    }

    private static List<String> ids(long from, long to, long dataRun) {
        List<String> out = new ArrayList<>();
        for (long id = from; id < to; id++) {
            out.add(id + ":" + dataRun);
        }
        return out;
    }

    private static void commit(IcebergSinkSettings settings, long checkpoint, long from, long to)
            throws Exception {
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        try {
            assertThat(
                            committer.commit(
                                    new IcebergCommittable(
                                            settings.run(),
                                            checkpoint,
                                            List.copyOf(
                                                    TestLake.writeDeadletters(
                                                            settings,
                                                            from,
                                                            to,
                                                            settings.deadletterRun())))))
                    .isTrue();
        } finally {
            committer.close();
        }
    }

    /**
     * A deadletter sink's bounded run repeated for the same data run (its data did not commit)
     * replaces the deadletters the earlier attempt committed, also where a compaction put them in
     * one data file with another data run's, whose rows stay (copy on write). On main the rerun's
     * rows were added to the earlier attempt's: 50 rows, 5 of them twice.
     */
    @Test
    void aRepeatedBoundedDeadletterRunReplacesItsDataRunsRowsAlsoInACompactedFile()
            throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings continuous = lake.deadletterSettings(false, false, 1);
        for (int checkpoint = 1; checkpoint <= 4; checkpoint++) {
            commit(continuous, checkpoint, checkpoint * 10 - 9, checkpoint * 10 + 1);
        }
        // data run 1 committed; data run 2's first attempt: its deadletters commit (and compact
        // with run 1's), its data does not
        commit(lake.deadletterSettings(true, true, 2), 1, 101, 106);
        Table compacted = lake.table("skippr_deadletters");
        try (var files = compacted.newScan().planFiles()) {
            assertThat(files).as("one file, both runs' rows").hasSize(1);
        }
        commit(lake.deadletterSettings(true, false, 2), 1, 101, 106);

        List<String> expected = new ArrayList<>(ids(1, 41, 1));
        expected.addAll(ids(101, 106, 2));
        java.util.Collections.sort(expected);
        assertThat(deadletters(lake)).containsExactlyElementsOf(expected);
        List<Record> rows = lake.rows("skippr_deadletters");
        assertThat(rows).hasSize(45);
        assertThat(sumOfIds(rows)).as("820 of run 1, 515 of run 2").isEqualTo(1335);
    }

    /**
     * A bounded deadletter run repeated for the same data run removes the earlier attempt's
     * deadletters when it starts, also when it commits none of its own (the records no longer
     * fail); other data runs' stay. Before, a rerun without deadletters made no commit and left
     * them.
     */
    @Test
    void aRepeatedBoundedDeadletterRunWithoutDeadlettersKeepsNoneOfItsDataRuns() throws Exception {
        TestLake lake = lake();
        commit(lake.deadletterSettings(true, false, 1), 1, 1, 11); // run 1 committed
        commit(lake.deadletterSettings(true, false, 2), 1, 101, 106); // run 2's data did not
        lake.deadletterSettings(true, false, 2); // the rerun starts, and deadletters nothing
        List<String> expected = new ArrayList<>(ids(1, 11, 1));
        java.util.Collections.sort(expected);
        assertThat(deadletters(lake)).containsExactlyElementsOf(expected);
        assertThat(sumOfIds(lake.rows("skippr_deadletters"))).isEqualTo(55);
    }

    /**
     * A continuous run after a failed {@code --once} attempt of the same data run removes that
     * attempt's deadletters before it starts (it reads the same records again), and only those: a
     * later start of the same data run (a restore) leaves the continuous run's own. On main the
     * attempt's 5 deadletters stayed beside the continuous run's.
     */
    @Test
    void aContinuousRunRemovesTheDeadlettersOfAFailedOnceAttemptOfItsDataRunOnly()
            throws Exception {
        TestLake lake = lake();
        commit(lake.deadletterSettings(true, false, 1), 1, 1, 11); // run 1 committed
        commit(lake.deadletterSettings(true, false, 2), 1, 101, 106); // run 2's data did not
        IcebergSinkSettings continuous = lake.deadletterSettings(false, false, 2);
        List<String> expected = new ArrayList<>(ids(1, 11, 1));
        java.util.Collections.sort(expected);
        assertThat(deadletters(lake)).as("before it starts").containsExactlyElementsOf(expected);
        commit(continuous, 1, 101, 106);
        expected.addAll(ids(101, 106, 2));
        java.util.Collections.sort(expected);
        assertThat(deadletters(lake)).containsExactlyElementsOf(expected);
        lake.deadletterSettings(false, false, 2); // restored: its checkpoint's rows stay
        assertThat(deadletters(lake)).containsExactlyElementsOf(expected);
        assertThat(sumOfIds(lake.rows("skippr_deadletters"))).isEqualTo(55 + 515);
    }

    @Test
    void aBoundedCommitMissingASubtasksEndCommitsNothing() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings settings = lake.settings(true, 1 << 20, false);
        List<IcebergWriteResult> half =
                List.copyOf(TestLake.write(settings, 0, 2, TestLake.ORDERS, 1, 11));
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        assertThatThrownBy(() -> committer.commit(new IcebergCommittable(settings.run(), 1, half)))
                .isInstanceOf(IcebergSinkException.class)
                .hasMessage(
                        "Bounded run 1 of pipeline p reached its commit with the ends of writer"
                                + " subtasks [0] of 2: refusing to commit part of a run");
        committer.close();
        assertThat(lake.rows("orders")).isEmpty();
        assertThat(IcebergSinks.committedPositions(settings)).isEmpty();
    }

    @Test
    void committablesSurviveTheirSerializer() throws Exception {
        TestLake lake = lake();
        IcebergSinkSettings settings = lake.settings(true, 1 << 20, false);
        IcebergCommittable committable =
                new IcebergCommittable(
                        4, 9, List.copyOf(TestLake.write(settings, TestLake.ORDERS, 1, 21)));
        IcebergCommittableSerializer serializer = new IcebergCommittableSerializer();
        IcebergCommittable back =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(committable));
        assertThat(back).isEqualTo(committable);
        assertThat(back.results().get(0).files().get(0).recordCount()).isEqualTo(20);
        assertThatThrownBy(() -> serializer.deserialize(3, serializer.serialize(committable)))
                .hasMessage(
                        "cannot read an Iceberg committable of version 3; this Skippr reads"
                                + " versions 1 to 2");

        // version 2 carries write_mode merge's equality delete files
        IcebergSinkSettings merging = settings.merging(true);
        IcebergCommittable merged =
                new IcebergCommittable(
                        4, 10, List.copyOf(TestLake.write(merging, TestLake.ORDERS, 21, 31)));
        IcebergCommittable mergedBack =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(merged));
        assertThat(mergedBack).isEqualTo(merged);
        assertThat(mergedBack.results().get(0).deletes().get(0).recordCount()).isEqualTo(10);
    }

    @Test
    void dataFilesRollAtTheTargetSize() throws Exception {
        TestLake lake = lake();
        long target = 64 * 1024;
        IcebergSinkSettings settings = lake.settings(false, target, false);
        List<IcebergWriteResult> results =
                List.copyOf(TestLake.write(settings, TestLake.ORDERS, 1, 30_001));
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        committer.commit(new IcebergCommittable(settings.run(), 1, results));
        committer.close();

        Table table = lake.table("orders");
        List<Long> sizes = new ArrayList<>();
        table.newScan().planFiles().forEach(task -> sizes.add(task.file().fileSizeInBytes()));
        assertThat(sizes).as("data files").hasSizeGreaterThan(2);
        assertThat(sizes).allMatch(size -> size < 2 * target);
        List<Record> rows = lake.rows("orders");
        assertThat(rows).hasSize(30_000);
        assertThat(sumOfIds(rows)).isEqualTo(30_000L * 30_001 / 2);
        assertThat(
                        rows.stream()
                                .map(r -> (BigDecimal) r.getField("amount"))
                                .reduce(BigDecimal.ZERO, BigDecimal::add))
                .isEqualByComparingTo(BigDecimal.valueOf(30_000L * 30_001 / 2 * 125, 2));
        Snapshot snapshot = table.currentSnapshot();
        assertThat(snapshot.summary()).containsEntry(CommitHistory.ROWS, "30000");
    }
}
