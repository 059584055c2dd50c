package io.skippr.sources.localfile;

import io.skippr.core.record.SourceRecord;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/** A reader that asks the enumerator for one file at a time and reads it. */
@SuppressWarnings("try") // close() comes from SourceReaderBase
final class FileSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                FileRecord, SourceRecord, FileSplit, FileSplitState> {

    FileSourceReader(SourceReaderContext context, boolean continuous) {
        super(
                () -> new FileSplitReader(continuous),
                new FileRecordEmitter(),
                context.getConfiguration(),
                context);
    }

    @Override
    public void start() {
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected void onSplitFinished(Map<String, FileSplitState> finishedSplitIds) {
        for (FileSplitState state : finishedSplitIds.values()) {
            if (state.sent() != null) { // after its rows: the file's new tail is read next
                context.sendSourceEventToCoordinator(new FileRead(state.path(), state.sent()));
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
