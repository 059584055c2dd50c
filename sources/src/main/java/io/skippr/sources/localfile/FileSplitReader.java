package io.skippr.sources.localfile;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayDeque;
import java.util.Deque;
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
    private FileSplit current;
    private FormatReader reader;

    @Override
    public RecordsWithSplitIds<FileRecord> fetch() throws IOException {
        RecordsBySplits.Builder<FileRecord> batch = new RecordsBySplits.Builder<>();
        if (reader == null) {
            current = splits.poll();
            if (current == null) {
                return batch.build();
            }
            try {
                reader = FormatReader.open(current);
            } catch (NoSuchFileException e) {
                LOG.warn(
                        "LocalFile: {} was removed before it was read; skipping it",
                        current.path());
                batch.addFinishedSplit(current.splitId());
                current = null;
                return batch.build();
            }
        }
        for (int i = 0; i < BATCH; i++) {
            FileRecord record = reader.next();
            if (record == null) {
                batch.addFinishedSplit(current.splitId());
                closeReader();
                break;
            }
            batch.add(current.splitId(), record);
        }
        return batch.build();
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
