package io.skippr.sinks.iceberg;

import io.skippr.core.naming.Names;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SchemaVersions;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.writer.StreamUnit;
import io.skippr.sinks.writer.StreamUnits;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * Writes each stream's rows into Parquet data files of its table, with Iceberg's own writers (so
 * every column carries its field id), rolling at the target size; at the checkpoint barrier (or the
 * end of a bounded run) it finishes them and hands them on, one {@link IcebergWriteResult} per
 * stream and schema version, plus in a bounded run its end. With write_mode merge it keeps each
 * stream's newest row per key instead ({@link MergeRows}) and writes them, with equality deletes on
 * the key, at the barrier: one result per stream. A new schema version is applied to the table when
 * it arrives ({@link IcebergTables#ensure}), before any row of it is written.
 *
 * <p>File names are {@code <subtask>-<attempt>-<pipeline>-<run>-<job>-<epoch>-<seq>-<n>.parquet}:
 * the job is (the start of) Flink's job id, the epoch the checkpoint the writer restored from, and
 * seq counts its files since; so a name never repeats, not for a retried attempt, nor for a rerun
 * of a run that never committed (Iceberg creates data files, it never overwrites one).
 */
final class IcebergWriter implements CommittingSinkWriter<SourceRecord, IcebergWriteResult> {
    private final IcebergSinkSettings settings;
    private final int subtask;
    private final int parallelism;
    private final int attempt;
    private final String job;
    private final long epoch;
    private final Catalog catalog;
    private final IcebergTables tables;
    private final SchemaVersions schemas = new SchemaVersions();
    private final Map<String, Table> tableOf = new HashMap<>();
    private final StreamUnits<OpenFiles, IcebergWriteResult> open =
            new StreamUnits<>(schemas, this::finish);

    /** write_mode merge: per stream, the newest version of each key since the last checkpoint. */
    private final Map<String, MergeRows> merges = new TreeMap<>();

    /** write_mode merge: the parts of this checkpoint written out early, in the order written. */
    private final List<IcebergWriteResult> mergedParts = new ArrayList<>();

    /**
     * Per stream, the read positions of the input since the last commit: a bounded run's, for its
     * ends; a continuous run's, for the checkpoint's commit.
     */
    private final Map<String, String> readPositions = new TreeMap<>();

    private long seq;

    IcebergWriter(
            IcebergSinkSettings settings,
            int subtask,
            int parallelism,
            int attempt,
            String job,
            long epoch) {
        this.settings = settings;
        this.subtask = subtask;
        this.parallelism = parallelism;
        this.attempt = attempt;
        this.job = job;
        this.epoch = epoch;
        this.catalog = settings.catalog().open();
        this.tables = new IcebergTables(catalog, settings);
    }

    @Override
    public void write(SourceRecord record, Context context) throws IOException {
        if (record instanceof SchemaChange change) {
            StreamSchema schema = change.schema();
            if (!schemas.has(schema)) {
                if (settings.merge() && schema.primaryKey().isEmpty()) {
                    throw new IcebergSinkException(
                            "write_mode merge upserts on the source's primary key, and stream "
                                    + schema.stream()
                                    + " has none");
                }
                tableOf.put(schema.stream(), tables.ensure(schema));
                schemas.add(schema);
            }
            return;
        }
        if (record instanceof ReadPosition position) {
            readPositions.merge(position.stream(), position.position(), ReadPositions::union);
            return;
        }
        if (!(record instanceof Row row)) {
            throw new IOException("an Iceberg sink receives rows and schemas, not " + record);
        }
        if (settings.merge()) {
            MergeRows rows = merges.computeIfAbsent(row.stream(), MergeRows::new);
            rows.put(schemas.of(row), row);
            if (rows.keys() >= MergeRows.MAX_KEYS) {
                // bounded memory: the commit settles a key held by two parts (KeyConflicts)
                mergedParts.add(finish(rows));
                merges.remove(row.stream());
            }
            return;
        }
        open.of(row, this::openFiles).write(row);
    }

    private OpenFiles openFiles(StreamSchema schema) {
        Table table = tableOf.get(schema.stream());
        RollingDataWriter<Record> writer =
                ParquetDataFiles.writer(
                        table, subtask, attempt, nextOperation(), settings.targetFileBytes());
        return new OpenFiles(schema, table, writer);
    }

    /** The unique part of the next files' names. */
    private String nextOperation() {
        return String.format(
                "%s-%d-%s-%d-%d",
                Names.snake(settings.pipeline()), settings.run(), job, epoch, seq++);
    }

    private IcebergWriteResult finish(OpenFiles files) throws IOException {
        files.writer.close();
        return IcebergWriteResult.files(
                subtask,
                parallelism,
                files.schema().stream(),
                files.writer.result().dataFiles(),
                files.rows(),
                files.maxCursor(),
                files.cursorType(),
                List.of());
    }

    private IcebergWriteResult finish(MergeRows rows) throws IOException {
        return rows.finish(
                tableOf.get(rows.stream()),
                subtask,
                parallelism,
                attempt,
                nextOperation(),
                settings.targetFileBytes());
    }

    @Override
    public Collection<IcebergWriteResult> prepareCommit() throws IOException {
        List<IcebergWriteResult> out = open.finishAll();
        out.addAll(mergedParts);
        mergedParts.clear();
        for (MergeRows rows : merges.values()) {
            if (rows.keys() > 0) {
                out.add(finish(rows));
            }
        }
        merges.clear();
        if (settings.bounded()) {
            out.add(IcebergWriteResult.end(subtask, parallelism));
        }
        readPositions.forEach(
                (stream, p) -> out.add(IcebergWriteResult.end(subtask, parallelism, stream, p)));
        readPositions.clear(); // a continuous run's: those of this checkpoint's rows
        return out;
    }

    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public void close() throws Exception {
        try {
            // never committed: the files stay outside every snapshot
            open.abandon(files -> files.writer.close());
            merges.clear();
            mergedParts.clear();
        } finally {
            if (catalog instanceof Closeable closeable) {
                closeable.close();
            }
        }
    }

    /** One stream's rolling data files for one schema version. */
    private static final class OpenFiles extends StreamUnit {
        final RollingDataWriter<Record> writer;
        final TableRecords records;

        OpenFiles(StreamSchema schema, Table table, RollingDataWriter<Record> writer) {
            super(schema);
            this.writer = writer;
            this.records = new TableRecords(schema, table);
        }

        void write(Row row) {
            writer.write(records.record(row));
            count(row);
        }
    }
}
