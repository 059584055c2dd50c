package io.skippr.sinks.files;

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
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;

/**
 * Writes each stream's rows into local files; a finished file (rolled, or closed at a checkpoint or
 * at the end of a bounded run) is staged in the store and handed on as a {@link StagedFile}
 * committable. A new schema version, a new day (with daily partitions) and the roll size or
 * interval start a new file. Final keys are {@code
 * <stream>/[dt=YYYY-MM-DD/]<pipeline>-<run>-<subtask>- <seq>.<ext>}; {@code seq} is kept in state,
 * so keys never repeat after a restore.
 */
final class StagingWriter
        implements StatefulSinkWriter<SourceRecord, Long>,
                CommittingSinkWriter<SourceRecord, StagedFile> {
    private final FileSinkSettings settings;
    private final int subtask;
    private final int parallelism;
    private final int attempt;
    private final long epoch;
    private final SchemaVersions schemas = new SchemaVersions();
    private final StreamUnits<OpenFile, StagedFile> open = new StreamUnits<>(schemas, this::stage);
    private long seq;

    /**
     * Per stream, the read positions of the input: a bounded run's, for its end markers; a
     * continuous run's since the last checkpoint, for that checkpoint's commit.
     */
    private final Map<String, String> readPositions = new java.util.TreeMap<>();

    /** Keeps this writer's local files apart from any other process's on the same host. */
    private final String writerId = java.util.UUID.randomUUID().toString().substring(0, 8);

    /**
     * @param epoch the checkpoint the job restored from, 0 for a fresh start: part of every file
     *     name, so a subtask that gets no sequence number in a restore at another parallelism never
     *     names a file as one an earlier subtask of its index committed
     */
    StagingWriter(
            FileSinkSettings settings,
            int subtask,
            int parallelism,
            int attempt,
            long epoch,
            long seq) {
        this.settings = settings;
        this.subtask = subtask;
        this.parallelism = parallelism;
        this.attempt = attempt;
        this.epoch = epoch;
        this.seq = seq;
    }

    @Override
    public void write(SourceRecord record, Context context) throws IOException {
        if (record instanceof SchemaChange change) {
            schemas.add(change.schema());
            return;
        }
        if (record instanceof ReadPosition position) {
            readPositions.merge(position.stream(), position.position(), ReadPositions::union);
            return;
        }
        if (!(record instanceof Row row)) {
            throw new IOException("a file sink receives rows and schemas, not " + record);
        }
        long now = System.currentTimeMillis();
        String partition = partition(now);
        OpenFile file =
                open.of(
                        row,
                        f ->
                                !f.partition.equals(partition)
                                        || (settings.rollMillis() > 0
                                                && now - f.openedAt >= settings.rollMillis()),
                        schema -> openFile(schema, partition, now));
        try {
            file.writer.write(row);
        } catch (IOException e) {
            throw FileSinkException.localFile(file.temp, settings.store(), e);
        }
        file.count(row);
        if (file.writer.bytesWritten() >= settings.rollBytes()) {
            open.finish(row.stream());
        }
    }

    private String partition(long now) {
        return settings.dailyPartitions()
                ? "dt=" + Instant.ofEpochMilli(now).atZone(ZoneOffset.UTC).toLocalDate()
                : "";
    }

    private OpenFile openFile(StreamSchema schema, String partition, long now) throws IOException {
        settings.catalog().prepare(schema, partition);
        String name =
                String.format(
                        "%s-%06d-%03d-%06d-%06d.%s",
                        Names.snake(settings.pipeline()),
                        settings.run(),
                        subtask,
                        epoch,
                        seq++,
                        FileSinkSettings.extension(settings.format(), settings.compression()));
        String folder = Names.snake(schema.stream()) + "/";
        String key = partition.isEmpty() ? folder + name : folder + partition + "/" + name;
        Path temp =
                settings.store()
                        .localStaging()
                        .resolve(Names.snake(settings.pipeline()))
                        .resolve(settings.run() + "-" + subtask + "-" + attempt + "-" + writerId)
                        .resolve(Names.snake(schema.stream()))
                        .resolve(name);
        try {
            Files.createDirectories(temp.getParent());
            Files.deleteIfExists(temp);
            RowFileWriter writer =
                    RowFileWriter.open(settings.format(), settings.compression(), schema, temp);
            return new OpenFile(schema, writer, temp, key, partition, now);
        } catch (IOException e) {
            throw FileSinkException.localFile(temp, settings.store(), e);
        }
    }

    /** Finishes a file and stages it in the store. */
    private StagedFile stage(OpenFile file) throws IOException {
        try {
            file.writer.close();
        } catch (IOException e) {
            throw FileSinkException.localFile(file.temp, settings.store(), e);
        }
        FileStore.Staged staged = settings.store().stage(file.temp, file.key);
        return new StagedFile(
                file.schema().stream(),
                staged.key(),
                staged.token(),
                file.rows(),
                settings.run(),
                settings.bounded(),
                subtask,
                parallelism,
                file.maxCursor(),
                file.cursorType());
    }

    @Override
    public Collection<StagedFile> prepareCommit() throws IOException {
        List<StagedFile> out = open.finishAll();
        if (settings.bounded()) {
            out.add(StagedFile.marker("", settings.run(), subtask, parallelism));
            readPositions.forEach(
                    (stream, position) ->
                            out.add(
                                    StagedFile.marker(
                                            stream,
                                            settings.run(),
                                            subtask,
                                            parallelism,
                                            position)));
        } else { // the positions of this checkpoint's rows, committed with them
            readPositions.forEach(
                    (stream, position) ->
                            out.add(
                                    StagedFile.position(
                                            stream,
                                            settings.run(),
                                            subtask,
                                            parallelism,
                                            position)));
            readPositions.clear();
        }
        return out;
    }

    @Override
    public List<Long> snapshotState(long checkpointId) {
        return List.of(seq);
    }

    @Override
    public void flush(boolean endOfInput) {}

    @Override
    public void close() throws IOException {
        open.abandon(file -> file.writer.close());
        settings.store().close();
    }

    /** One stream's local file for one schema version (and day), until it rolls. */
    private static final class OpenFile extends StreamUnit {
        final RowFileWriter writer;
        final Path temp;
        final String key;
        final String partition;
        final long openedAt;

        OpenFile(
                StreamSchema schema,
                RowFileWriter writer,
                Path temp,
                String key,
                String partition,
                long openedAt) {
            super(schema);
            this.partition = partition;
            this.openedAt = openedAt;
            this.writer = writer;
            this.temp = temp;
            this.key = key;
        }
    }
}
