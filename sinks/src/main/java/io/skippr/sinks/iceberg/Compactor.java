package io.skippr.sinks.iceberg;

import io.skippr.core.naming.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * Rewrites a table's small data files (under three quarters of the target size) into files of the
 * target size, once at least {@link #MIN_INPUT_FILES} of them gathered: every row of the old files
 * is read (with the table's current schema, so older files' missing columns read as null) and
 * written again, the counts are compared, and one {@code RewriteFiles} commit swaps the old files
 * for the new in a single snapshot, validated against the snapshot it read: it never adds or drops
 * a row, and a concurrent commit of new data does not conflict with it. The old files stay in the
 * snapshots before it, for time travel, until those are expired.
 */
final class Compactor {
    static final int MIN_INPUT_FILES = 5;

    private final IcebergSinkSettings settings;
    private final String job;
    private long seq;

    Compactor(IcebergSinkSettings settings, String job) {
        this.settings = settings;
        this.job = job;
    }

    /** Compacts the table's current snapshot; false if it had too few small files. */
    boolean compact(Table table) {
        table.refresh();
        Snapshot current = table.currentSnapshot();
        if (current == null) {
            return false;
        }
        long small = settings.targetFileBytes() / 4 * 3;
        List<DataFile> inputs = new ArrayList<>();
        try (CloseableIterable<FileScanTask> tasks =
                table.newScan().useSnapshot(current.snapshotId()).planFiles()) {
            for (FileScanTask task : tasks) {
                if (task.file().fileSizeInBytes() < small && task.deletes().isEmpty()) {
                    inputs.add(task.file());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (inputs.size() < MIN_INPUT_FILES) {
            return false;
        }
        List<DataFile> outputs = rewrite(table, current, inputs);
        long in = inputs.stream().mapToLong(DataFile::recordCount).sum();
        long out = outputs.stream().mapToLong(DataFile::recordCount).sum();
        if (in != out) {
            throw new IcebergSinkException(
                    "Compacting "
                            + table.name()
                            + " read "
                            + in
                            + " rows but wrote "
                            + out
                            + "; the compaction was not committed");
        }
        table.newRewrite()
                .validateFromSnapshot(current.snapshotId())
                .rewriteFiles(new HashSet<>(inputs), new HashSet<>(outputs))
                .set(CommitHistory.PIPELINE, settings.pipeline())
                .set(CommitHistory.SINK, settings.sink())
                .set(CommitHistory.COMPACTION, String.valueOf(inputs.size()))
                .commit();
        return true;
    }

    private List<DataFile> rewrite(Table table, Snapshot current, List<DataFile> inputs) {
        Schema schema = table.schema();
        RollingDataWriter<Record> writer =
                ParquetDataFiles.writer(
                        table,
                        0,
                        0,
                        Names.snake(settings.pipeline())
                                + "-compact-"
                                + current.snapshotId()
                                + "-"
                                + job
                                + "-"
                                + seq++,
                        settings.targetFileBytes());
        try {
            for (DataFile file : inputs) {
                try (CloseableIterable<Record> rows =
                        ParquetDataFiles.read(table, file.location(), schema)) {
                    for (Record row : rows) {
                        writer.write(row);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + table.name() + " to compact it", e);
        } finally {
            try {
                writer.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return writer.result().dataFiles();
    }
}
