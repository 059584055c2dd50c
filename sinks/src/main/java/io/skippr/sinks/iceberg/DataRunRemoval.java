package io.skippr.sinks.iceberg;

import io.skippr.core.naming.Names;
import io.skippr.core.record.Deadletter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.OverwriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.Transaction;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.StrictMetricsEvaluator;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Removes a deadletter table's rows of one data run ({@link Deadletter#DATA_RUN}), copy on write. A
 * data file whose column bounds say every row is of that run (each run's deadletters are written to
 * files of their own) is dropped unread; any other file that may hold such a row (a compaction
 * mixes runs) is read, with the table's current schema and its delete files applied, and replaced
 * by a file of the other runs' rows if it held any of the run's. One {@code OverwriteFiles} in the
 * caller's transaction, so the removal lands exactly with what the caller commits after it. The
 * table is Skippr's, unpartitioned.
 */
final class DataRunRemoval {
    /** The snapshot summary field naming the data run whose deadletters a removal took out. */
    static final String REMOVED_DATA_RUN = "skippr.removed-data-run";

    private final IcebergSinkSettings settings;
    private final String job;
    private long seq;

    DataRunRemoval(IcebergSinkSettings settings, String job) {
        this.settings = settings;
        this.job = job;
    }

    /**
     * Adds to {@code tx} the removal of {@code table}'s rows of data run {@code dataRun}, as of its
     * current snapshot; nothing when it holds none (or has no {@code data_run} column).
     *
     * @return whether there was anything to remove
     */
    boolean remove(Transaction tx, Table table, long dataRun) {
        Snapshot current = table.currentSnapshot();
        if (current == null || table.schema().findField(Deadletter.DATA_RUN) == null) {
            return false;
        }
        Expression ofRun = Expressions.equal(Deadletter.DATA_RUN, dataRun);
        StrictMetricsEvaluator onlyOfRun = new StrictMetricsEvaluator(table.schema(), ofRun);
        List<DataFile> dropped = new ArrayList<>();
        RollingDataWriter<Record> writer = writer(table, current, dataRun);
        try (CloseableIterable<FileScanTask> tasks =
                table.newScan().useSnapshot(current.snapshotId()).filter(ofRun).planFiles()) {
            for (FileScanTask task : tasks) {
                if (task.deletes().isEmpty() && onlyOfRun.eval(task.file())) {
                    dropped.add(task.file()); // its bounds say every row is of the run
                } else if (rewrite(table, task, dataRun, null) > 0) {
                    rewrite(table, task, dataRun, writer);
                    dropped.add(task.file());
                } // else its bounds span the run, its rows are of others
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "reading " + table.name() + " to remove the deadletters of data run " + dataRun,
                    e);
        } finally {
            try {
                writer.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (dropped.isEmpty()) {
            return false;
        }
        OverwriteFiles overwrite = tx.newOverwrite();
        dropped.forEach(overwrite::deleteFile);
        writer.result().dataFiles().forEach(overwrite::addFile);
        overwrite
                .set(CommitHistory.PIPELINE, settings.pipeline())
                .set(CommitHistory.SINK, settings.sink())
                .set(REMOVED_DATA_RUN, String.valueOf(dataRun))
                .commit();
        return true;
    }

    /**
     * Reads a task's live rows (the table's schema, the file's deletes applied) and writes those of
     * other runs to {@code writer}, if given.
     *
     * @return how many rows of {@code dataRun} it found
     */
    private static long rewrite(
            Table table, FileScanTask task, long dataRun, RollingDataWriter<Record> writer)
            throws IOException {
        Schema schema = table.schema();
        GenericDeleteFilter deletes = new GenericDeleteFilter(table.io(), task, schema, schema);
        Schema read = deletes.requiredSchema();
        long matched = 0;
        try (CloseableIterable<Record> live =
                deletes.filter(
                        Parquet.read(table.io().newInputFile(task.file().location()))
                                .project(read)
                                .createReaderFunc(
                                        fileSchema ->
                                                GenericParquetReaders.buildReader(
                                                        read, fileSchema, Map.of()))
                                .build())) {
            for (Record row : live) {
                if (Objects.equals(row.getField(Deadletter.DATA_RUN), dataRun)) {
                    matched++;
                } else if (writer != null) {
                    GenericRecord copy = GenericRecord.create(schema);
                    for (Types.NestedField field : schema.columns()) {
                        copy.setField(field.name(), row.getField(field.name()));
                    }
                    writer.write(copy);
                }
            }
        }
        return matched;
    }

    private RollingDataWriter<Record> writer(Table table, Snapshot current, long dataRun) {
        String operation =
                Names.snake(settings.pipeline())
                        + "-remove-run-"
                        + dataRun
                        + "-"
                        + current.snapshotId()
                        + "-"
                        + job
                        + "-"
                        + seq++;
        return ParquetDataFiles.writer(table, 0, 0, operation, settings.targetFileBytes());
    }
}
