package io.skippr.sources.postgres;

import io.skippr.core.record.SourceRecord;
import io.skippr.sources.StreamBytes;
import io.skippr.sources.UnacknowledgedReports;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * The reader on a TaskManager: asks the enumerator for a split when it starts without one and
 * whenever it finishes one, and reads them on one fetcher thread through {@link
 * PostgresSplitReader}. The checkpointed state of a split is its last emitted key (or row count).
 * It reports each finished split ({@link SplitRead}) and keeps the report in its state until the
 * enumerator acknowledges it ({@link UnacknowledgedReports}).
 */
@SuppressWarnings("try") // close() may throw InterruptedException, as in every SourceReaderBase
final class PostgresSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                ReadRecord, SourceRecord, PostgresSplit, PostgresSplitState> {

    private final UnacknowledgedReports<PostgresSplit> reports =
            new UnacknowledgedReports<>(PostgresSplit::isReport, PostgresSplit::report);

    PostgresSourceReader(
            PostgresConnectionConfig connection,
            boolean continuous,
            Configuration config,
            SourceReaderContext context) {
        super(
                () -> new PostgresSplitReader(connection, continuous),
                new PostgresRecordEmitter(new StreamBytes(context.metricGroup())),
                config,
                context);
    }

    @Override
    public void start() {
        reports.sendAgain(context);
        // A restored reader already has splits; it asks for more when it finishes them.
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    public void addSplits(List<PostgresSplit> splits) {
        List<PostgresSplit> toRead = reports.toRead(splits);
        if (!toRead.isEmpty()) {
            super.addSplits(toRead);
        }
    }

    @Override
    public List<PostgresSplit> snapshotState(long checkpointId) {
        return reports.withReports(super.snapshotState(checkpointId));
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (!reports.acknowledged(event)) {
            super.handleSourceEvents(event);
        }
    }

    @Override
    protected void onSplitFinished(Map<String, PostgresSplitState> finishedSplitIds) {
        finishedSplitIds.forEach(
                (id, state) ->
                        reports.send(
                                state.toSplit()
                                        .finished(
                                                state.sent() == null
                                                        ? null
                                                        : state.sent().position()),
                                context));
        context.sendSplitRequest();
    }

    @Override
    protected PostgresSplitState initializedState(PostgresSplit split) {
        return new PostgresSplitState(split);
    }

    @Override
    protected PostgresSplit toSplitType(String splitId, PostgresSplitState splitState) {
        return splitState.toSplit();
    }
}
