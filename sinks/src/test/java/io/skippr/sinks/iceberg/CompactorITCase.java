package io.skippr.sinks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compact: true}: small data files are rewritten into larger ones after a commit, and the
 * table holds exactly the rows it held, through replays and schema changes.
 */
class CompactorITCase {
    @TempDir Path dir;

    private static int dataFiles(Table table) {
        int[] n = {0};
        table.newScan().planFiles().forEach(task -> n[0]++);
        return n[0];
    }

    @Test
    void smallFilesAreRewrittenWithoutLosingOrDuplicatingARow() throws Exception {
        TestLake lake = new TestLake(dir.resolve("lake"));
        IcebergSinkSettings settings = lake.settings(false, 8L << 20, true);
        IcebergCommitter committer = new IcebergCommitter(settings, "test");
        List<IcebergCommittable> committed = new ArrayList<>();
        for (int checkpoint = 1; checkpoint <= Compactor.MIN_INPUT_FILES - 1; checkpoint++) {
            long from = checkpoint * 1000L;
            committed.add(commit(committer, settings, checkpoint, from, from + 100));
        }
        Table before = lake.table("orders");
        assertThat(dataFiles(before)).as("below the threshold: untouched").isEqualTo(4);

        // a column added at the source: the next files hold it, the older ones do not
        StreamSchema withNote =
                TestLake.ORDERS.withColumns(List.of(Column.of("note", DataType.STRING)));
        committed.add(
                new IcebergCommittable(
                        settings.run(),
                        5,
                        List.copyOf(TestLake.write(settings, withNote, 5000, 5100))));
        assertThat(committer.commit(committed.get(4))).isTrue();

        Table after = lake.table("orders");
        assertThat(dataFiles(after)).as("five small files became one").isEqualTo(1);
        Snapshot compaction = after.currentSnapshot();
        assertThat(compaction.operation()).isEqualTo("replace");
        assertThat(compaction.summary()).containsEntry(CommitHistory.COMPACTION, "5");
        assertExactly(lake.rows("orders"));

        // replays of every commit, also those whose files were rewritten: no-ops
        for (IcebergCommittable c : committed) {
            assertThat(committer.commit(c)).isFalse();
        }
        assertExactly(lake.rows("orders"));
        committer.close();
    }

    private static IcebergCommittable commit(
            IcebergCommitter committer,
            IcebergSinkSettings settings,
            long checkpoint,
            long from,
            long to)
            throws Exception {
        IcebergCommittable c =
                new IcebergCommittable(
                        settings.run(),
                        checkpoint,
                        List.copyOf(TestLake.write(settings, TestLake.ORDERS, from, to)));
        assertThat(committer.commit(c)).isTrue();
        return c;
    }

    /** Ids 1000..1099, 2000..2099, … 5000..5099, once each; notes only on the last hundred. */
    private static void assertExactly(List<Record> rows) {
        Set<Long> ids = new HashSet<>();
        Set<Long> expected = new HashSet<>();
        for (long k = 1; k <= 5; k++) {
            for (long id = k * 1000; id < k * 1000 + 100; id++) {
                expected.add(id);
            }
        }
        for (Record row : rows) {
            long id = (Long) row.getField("id");
            ids.add(id);
            assertThat(row.getField("_skippr_id")).isNotNull();
        }
        assertThat(rows).hasSize(500);
        assertThat(ids).isEqualTo(expected);
    }
}
