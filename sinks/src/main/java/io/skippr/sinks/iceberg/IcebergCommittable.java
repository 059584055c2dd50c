package io.skippr.sinks.iceberg;

import java.util.List;

/**
 * One checkpoint's writes, gathered from every writer subtask by {@link WriteAggregator}: what the
 * committer commits, one catalog commit per table. Committing it twice is harmless: the table's
 * history holds its commit id ({@link CommitHistory#commitId}).
 *
 * @param run the sink's run number
 * @param checkpoint the Flink checkpoint the files were written for (in a bounded run, the end of
 *     input's)
 */
public record IcebergCommittable(long run, long checkpoint, List<IcebergWriteResult> results) {
    public IcebergCommittable {
        results = List.copyOf(results);
    }
}
