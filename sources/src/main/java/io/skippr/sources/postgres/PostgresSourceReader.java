package io.skippr.sources.postgres;

import io.skippr.core.record.SourceRecord;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * The reader on a TaskManager: asks the enumerator for a split when it starts without one and
 * whenever it finishes one, and reads them on one fetcher thread through {@link
 * PostgresSplitReader}. The checkpointed state of a split is its last emitted key (or row count).
 */
@SuppressWarnings("try") // close() may throw InterruptedException, as in every SourceReaderBase
final class PostgresSourceReader
        extends SingleThreadMultiplexSourceReaderBase<
                ReadRecord, SourceRecord, PostgresSplit, PostgresSplitState> {

    PostgresSourceReader(
            PostgresConnectionConfig connection,
            int fetchSize,
            boolean continuous,
            Configuration config,
            SourceReaderContext context) {
        super(
                () -> new PostgresSplitReader(connection, fetchSize, continuous),
                new PostgresRecordEmitter(),
                config,
                context);
    }

    @Override
    public void start() {
        // A restored reader already has splits; it asks for more when it finishes them.
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected void onSplitFinished(Map<String, PostgresSplitState> finishedSplitIds) {
        finishedSplitIds.forEach(
                (id, state) ->
                        context.sendSourceEventToCoordinator(
                                new SplitRead(
                                        id,
                                        state.schema().stream(),
                                        state.sent() == null ? null : state.sent().position())));
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
