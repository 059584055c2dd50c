package io.skippr.sources.localfile;

import io.skippr.core.record.SourceRecord;
import io.skippr.sources.StreamBytes;
import io.skippr.sources.UnacknowledgedReports;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * A reader that asks the enumerator for one file at a time and reads it. It reports each finished
 * split ({@link FileRead}) and keeps the report in its state until the enumerator acknowledges it
 * ({@link UnacknowledgedReports}).
 */
@SuppressWarnings("try") // close() comes from SourceReaderBase
final class FileSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                FileRecord, SourceRecord, FileSplit, FileSplitState> {

    private final UnacknowledgedReports<FileSplit> reports =
            new UnacknowledgedReports<>(FileSplit::isReport, FileSplit::report);

    private final StreamBytes bytes;

    FileSourceReader(SourceReaderContext context, boolean continuous) {
        this(context, continuous, new StreamBytes(context.metricGroup()));
    }

    private FileSourceReader(SourceReaderContext context, boolean continuous, StreamBytes bytes) {
        super(
                () -> new FileSplitReader(continuous),
                new FileRecordEmitter(bytes),
                context.getConfiguration(),
                context);
        this.bytes = bytes;
    }

    @Override
    public void start() {
        reports.sendAgain(context);
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    public void addSplits(List<FileSplit> splits) {
        List<FileSplit> toRead = reports.toRead(splits);
        if (!toRead.isEmpty()) {
            super.addSplits(toRead);
        }
    }

    @Override
    public List<FileSplit> snapshotState(long checkpointId) {
        return reports.withReports(super.snapshotState(checkpointId));
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (!reports.acknowledged(event)) {
            super.handleSourceEvents(event);
        }
    }

    @Override
    protected void onSplitFinished(Map<String, FileSplitState> finishedSplitIds) {
        for (FileSplitState state : finishedSplitIds.values()) {
            if (state.isParquet()
                    && state.sent() != null
                    && state.stream() != null) { // read whole, counted at its end
                bytes.read(state.stream(), FileEntry.parse(state.sent()).offset());
            }
            if (state.sent() != null) { // after its rows: the file's new tail is read next
                reports.send(state.toSplit().finished(state.sent()), context);
            }
        }
        context.sendSplitRequest();
    }

    @Override
    protected FileSplitState initializedState(FileSplit split) {
        return new FileSplitState(split);
    }

    @Override
    protected FileSplit toSplitType(String splitId, FileSplitState splitState) {
        return splitState.toSplit();
    }
}
