package io.skippr.sources.localfile;

import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the assigned splits one after the other, in batches, on the fetcher thread. */
final class FileSplitReader implements SplitReader<FileRecord, FileSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(FileSplitReader.class);
    static final int BATCH = 1024;

    private final Deque<FileSplit> splits = new ArrayDeque<>();

    /** A continuous run's reader: names each split before its rows, and where it started. */
    private final boolean continuous;

    FileSplitReader(boolean continuous) {
        this.continuous = continuous;
    }

    private FileSplit current;
    private FormatReader reader;

    /** The current split's records read and byte offset after its last record. */
    private long records;

    private long offset;

    @Override
    public RecordsWithSplitIds<FileRecord> fetch() throws IOException {
        RecordsBySplits.Builder<FileRecord> batch = new RecordsBySplits.Builder<>();
        if (reader == null) {
            current = splits.poll();
            if (current == null) {
                return batch.build();
            }
            records = current.recordsRead();
            offset = current.byteOffset();
            try {
                if (current.format() == FileFormat.PARQUET) {
                    offset = Files.size(Path.of(current.path())); // read whole: its size
                }
                reader = FormatReader.open(current);
                if (continuous) {
                    batch.add(
                            current.splitId(),
                            new FileRecord(
                                    new ReadPosition(
                                            current.schema().stream(),
                                            ReadPositions.opening(FileEntry.opening(current))),
                                    current.schema(),
                                    records,
                                    offset));
                }
            } catch (NoSuchFileException e) {
                LOG.warn(
                        "LocalFile: {} was removed before it was read; skipping it",
                        current.path());
                if (!current.carried().isEmpty()) { // positions of other files still count
                    batch.add(
                            current.splitId(),
                            new FileRecord(
                                    new ReadPosition(
                                            current.schema().stream(),
                                            ReadPositions.of(current.carried())),
                                    current.schema(),
                                    0,
                                    0));
                }
                batch.addFinishedSplit(current.splitId());
                current = null;
                return batch.build();
            }
        }
        for (int i = 0; i < BATCH; i++) {
            FileRecord record = reader.next();
            if (record == null) {
                if (reader.offsetAtEnd() >= 0) { // past blank lines, so a rerun skips them
                    offset = reader.offsetAtEnd();
                    records = reader.recordsRead();
                }
                batch.add(current.splitId(), position());
                batch.addFinishedSplit(current.splitId());
                closeReader();
                break;
            }
            records = record.recordsRead();
            if (current.format() != FileFormat.PARQUET) { // a Parquet row has no offset: 0
                offset = record.byteOffset();
            }
            batch.add(current.splitId(), record);
        }
        return batch.build();
    }

    /**
     * How far the split read its file, with the positions it carries of files this run does not
     * read: sent after its rows, committed with them.
     */
    private FileRecord position() throws IOException {
        List<String> entries = new ArrayList<>(current.carried());
        FileEntry read =
                FileEntry.of(Path.of(current.path()), offset, records, current.generation());
        entries.add((continuous ? read.from(current.recordsRead()) : read).toLine());
        return new FileRecord(
                new ReadPosition(current.schema().stream(), ReadPositions.of(entries)),
                current.schema(),
                records,
                offset);
    }

    private void closeReader() throws IOException {
        FormatReader r = reader;
        reader = null;
        current = null;
        if (r != null) {
            r.close();
        }
    }

    @Override
    public void handleSplitsChanges(SplitsChange<FileSplit> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException(
                    "Unsupported splits change " + change.getClass().getSimpleName());
        }
        splits.addAll(change.splits());
    }

    @Override
    public void wakeUp() {
        // fetch() never blocks
    }

    @Override
    public void close() throws IOException {
        closeReader();
    }
}
