package org.apache.flink.runtime.checkpoint;

import java.util.Map;
import org.apache.flink.runtime.jobgraph.JobVertexID;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;

/**
 * A real {@link DefaultCheckpointStatsTracker} that a test drives: Flink turns pending checkpoint
 * stats into completed or failed ones only inside this package, hence this class's package.
 */
public final class CheckpointStatsFixture {
    private static final JobVertexID VERTEX = new JobVertexID();
    private final DefaultCheckpointStatsTracker tracker =
            new DefaultCheckpointStatsTracker(
                    10, UnregisteredMetricGroups.createUnregisteredJobManagerJobMetricGroup());

    public void complete(long id) {
        PendingCheckpointStats pending = pending(id);
        pending.reportSubtaskStats(VERTEX, new SubtaskStateStats(0, System.currentTimeMillis()));
        tracker.reportCompletedCheckpoint(pending.toCompletedCheckpointStats("chk-" + id));
    }

    public void fail(long id, String message) {
        tracker.reportFailedCheckpoint(
                pending(id).toFailedCheckpoint(System.currentTimeMillis(), new Exception(message)));
    }

    /** A checkpoint that failed as it was triggered: counted, but in no history. */
    public void failAtTrigger() {
        tracker.reportFailedCheckpointsWithoutInProgress();
    }

    public CheckpointStatsSnapshot snapshot() {
        return tracker.createSnapshot();
    }

    private PendingCheckpointStats pending(long id) {
        return tracker.reportPendingCheckpoint(
                id,
                System.currentTimeMillis(),
                CheckpointProperties.forCheckpoint(
                        CheckpointRetentionPolicy.RETAIN_ON_CANCELLATION),
                Map.of(VERTEX, 1));
    }
}
