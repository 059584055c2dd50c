package io.skippr.sinks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * write_mode merge on a real SkipprLake (embedded catalog, local warehouse), read back with
 * Iceberg's generic reader, which applies the equality deletes: the current snapshot holds one row
 * per key, equal (md5 per key) to the newest version of each key, deleted keys gone.
 */
class IcebergMergeITCase {
    /** Change data as the PostgreSQL CDC source reads it: cursor _skippr_lsn, key id. */
    static final StreamSchema CHANGES =
            new StreamSchema(
                    "shop.orders",
                    List.of(
                            Column.of("id", DataType.INT64),
                            new Column("status", DataType.STRING, true),
                            Column.of("_skippr_lsn", DataType.STRING),
                            Column.of("_skippr_op", DataType.STRING)),
                    List.of("id"),
                    "_skippr_lsn");

    @TempDir Path dir;

    private static Row change(Operation op, long id, String status, long lsn) {
        String position = "shop.orders:" + id;
        Object[] values = {id, status, String.format("%016X%08X", lsn, 1), op.name().toLowerCase()};
        return new Row(
                CHANGES.stream(),
                CHANGES.version(),
                op,
                values,
                position,
                SkipprId.of(CHANGES.stream(), position),
                1_700_000_000_000_000L);
    }

    /** What writer subtask {@code subtask} hands on for {@code checkpoint} after {@code rows}. */
    private static List<IcebergWriteResult> write(
            IcebergSinkSettings settings,
            long checkpoint,
            int subtask,
            int parallelism,
            List<Row> rows)
            throws Exception {
        // a new writer per call: the epoch keeps its file names apart from the earlier ones'
        try (IcebergWriter writer =
                new IcebergWriter(settings, subtask, parallelism, 0, "test", checkpoint)) {
            writer.write(new SchemaChange(CHANGES), null);
            for (Row row : rows) {
                writer.write(row, null);
            }
            return List.copyOf(writer.prepareCommit());
        }
    }

    private static Map<Long, String> md5PerKey(List<Record> rows) throws Exception {
        Map<Long, String> out = new TreeMap<>();
        for (Record r : rows) {
            String text =
                    r.getField("id") + "|" + r.getField("status") + "|" + r.getField("_skippr_lsn");
            byte[] md5 =
                    MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            String before = out.put((Long) r.getField("id"), HexFormat.of().formatHex(md5));
            assertThat(before).as("key held once: " + r.getField("id")).isNull();
        }
        return out;
    }

    private static Map<Long, String> md5PerKey(Map<Long, Row> expected) throws Exception {
        Map<Long, String> out = new TreeMap<>();
        for (Row row : expected.values()) {
            String text = row.value(0) + "|" + row.value(1) + "|" + row.value(2);
            byte[] md5 =
                    MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            out.put((Long) row.value(0), HexFormat.of().formatHex(md5));
        }
        return out;
    }

    @Test
    void mergeKeepsTheNewestVersionPerKeyAppliesDeletesAndAReplayIsANoOp() throws Exception {
        TestLake lake = new TestLake(dir.resolve("lake"));
        IcebergSinkSettings settings = lake.settings(false, 1 << 20, false).merging(true);
        Map<Long, Row> expected = new TreeMap<>();
        List<Row> first = new ArrayList<>();
        for (long id = 1; id <= 100; id++) {
            first.add(change(Operation.INSERT, id, "new", 10));
        }
        first.forEach(r -> expected.put((Long) r.value(0), r));
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        assertThat(
                        committer.commit(
                                new IcebergCommittable(
                                        settings.run(), 1, write(settings, 1, 0, 1, first))))
                .isTrue();

        List<Row> second = new ArrayList<>();
        for (long id = 1; id <= 10; id++) {
            Row newer = change(Operation.UPDATE, id, "paid", 30);
            second.add(newer);
            second.add(change(Operation.UPDATE, id, "stale", 20)); // read last, but older
            expected.put(id, newer);
        }
        for (long id = 91; id <= 100; id++) {
            second.add(change(Operation.DELETE, id, null, 40));
            expected.remove(id);
        }
        second.add(change(Operation.INSERT, 101, "new", 50));
        expected.put(101L, second.get(second.size() - 1));
        IcebergCommittable committable =
                new IcebergCommittable(settings.run(), 2, write(settings, 2, 0, 1, second));
        assertThat(committer.commit(committable)).isTrue();
        assertThat(committer.commit(committable)).as("a replay").isFalse();
        committer.close();
        IcebergCommitter restored = new IcebergCommitter(settings, "restored");
        assertThat(restored.commit(committable)).as("a replay after a restore").isFalse();
        restored.close();

        List<Record> rows = lake.rows("shop_orders");
        assertThat(rows).hasSize(91);
        assertThat(md5PerKey(rows)).isEqualTo(md5PerKey(expected));

        Table table = lake.table("shop_orders");
        assertThat(table.schema().identifierFieldNames()).containsExactly("id");
        assertThat(table.snapshots()).hasSize(2);
        Snapshot current = table.currentSnapshot();
        assertThat(current.summary())
                .containsEntry(CommitHistory.COMMIT_ID, "p/lake/run-1/checkpoint-2")
                .containsEntry(CommitHistory.ROWS, "31")
                .containsEntry("added-records", "11")
                .containsEntry("added-equality-deletes", "21");
    }

    /**
     * Two writer subtasks holding versions of the same keys in one commit (a CDC snapshot split's
     * row and the stream's change of it, in one --once commit): the newest version of each key is
     * its only row, whichever subtask read it. Before KeyConflicts both subtasks' rows stayed (the
     * equality deletes of a commit never touch its own data rows): 40 keys held twice.
     */
    @Test
    void versionsOfOneKeyFromTwoSubtasksOfOneCommitLeaveTheNewestOnly() throws Exception {
        TestLake lake = new TestLake(dir.resolve("lake"));
        IcebergSinkSettings settings = lake.settings(true, 1 << 20, false).merging(true);
        Map<Long, Row> expected = new TreeMap<>();
        List<Row> zero = new ArrayList<>();
        List<Row> one = new ArrayList<>();
        for (long id = 1; id <= 60; id++) {
            Row snapshot = change(Operation.INSERT, id, "snapshot", 0);
            zero.add(snapshot);
            expected.put(id, snapshot);
        }
        for (long id = 1; id <= 20; id++) { // subtask 1 holds the newer version
            Row newer = change(Operation.UPDATE, id, "changed", 100 + id);
            one.add(newer);
            expected.put(id, newer);
        }
        for (long id = 21; id <= 30; id++) { // subtask 1 deletes them later
            one.add(change(Operation.DELETE, id, null, 100 + id));
            expected.remove(id);
        }
        List<Row> zeroLater = new ArrayList<>();
        for (long id = 31; id <= 40; id++) { // subtask 0 holds the newer version
            one.add(change(Operation.UPDATE, id, "older", 1));
            Row newer = change(Operation.UPDATE, id, "newer", 200);
            zeroLater.add(newer);
            expected.put(id, newer);
        }
        zero.addAll(zeroLater);
        List<IcebergWriteResult> results = new ArrayList<>(write(settings, 1, 0, 2, zero));
        results.addAll(write(settings, 1, 1, 2, one));
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        assertThat(committer.commit(new IcebergCommittable(settings.run(), 1, results))).isTrue();
        committer.close();

        List<Record> rows = lake.rows("shop_orders");
        assertThat(rows).hasSize(50);
        assertThat(md5PerKey(rows)).isEqualTo(md5PerKey(expected));
        assertThat(lake.table("shop_orders").currentSnapshot().summary())
                .containsEntry("added-position-deletes", "40");
    }

    @Test
    void mergeRefusesAStreamWithoutAPrimaryKey() throws Exception {
        TestLake lake = new TestLake(dir.resolve("lake"));
        IcebergSinkSettings settings = lake.settings(true, 1 << 20, false).merging(true);
        StreamSchema keyless =
                new StreamSchema("events", List.of(Column.of("id", DataType.INT64)), List.of());
        try (IcebergWriter writer = new IcebergWriter(settings, 0, 1, 0, "test", 0)) {
            assertThatThrownBy(() -> writer.write(new SchemaChange(keyless), null))
                    .isInstanceOf(IcebergSinkException.class)
                    .hasMessage(
                            "write_mode merge upserts on the source's primary key, and stream"
                                    + " events has none");
        }
    }
}
