package io.skippr.job;

import io.skippr.core.io.DiskSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.CheckpointStatsHistory;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.ErrorInfo;

/**
 * What a user must hear while a pipeline runs, read from the job's execution graph at each look:
 * checkpoints that fail (nothing new is committed until one completes), the checkpoint that
 * completes after them, and restarts with their cause. A state folder whose disk is full is named.
 * The same failure is said again at most once a minute.
 */
final class JobTrouble {
    private static final long REPEAT_MILLIS = 60_000;

    private final Path stateDir;
    private long lastFailureAt;
    private long lastFailedCheckpoint = -1;
    private long lastCompletedCheckpoint = -1;
    private long failedInARow;
    private String lastSaid = "";
    private long lastSaidAt;

    JobTrouble(Path stateDir) {
        this.stateDir = stateDir;
    }

    /** Sentences about what changed since the last look; none when all is well. */
    List<String> look(AccessExecutionGraph graph, long now) {
        List<String> said = new ArrayList<>();
        restarted(graph).ifPresent(said::add);
        CheckpointStatsSnapshot stats = graph.getCheckpointStatsSnapshot();
        if (stats == null) {
            return said;
        }
        CheckpointStatsHistory history = stats.getHistory();
        FailedCheckpointStats failed = history.getLatestFailedCheckpoint();
        CompletedCheckpointStats completed = history.getLatestCompletedCheckpoint();
        if (failed != null && failed.getCheckpointId() != lastFailedCheckpoint) {
            lastFailedCheckpoint = failed.getCheckpointId();
            failedInARow++;
            String why = checkpointFailure(failed);
            if (!why.equals(lastSaid) || now - lastSaidAt >= REPEAT_MILLIS) {
                said.add(
                        "checkpoint "
                                + failed.getCheckpointId()
                                + " failed"
                                + why
                                + "; nothing new is committed until a checkpoint completes,"
                                + " and nothing is lost");
                lastSaid = why;
                lastSaidAt = now;
            }
        }
        if (completed != null && completed.getCheckpointId() != lastCompletedCheckpoint) {
            lastCompletedCheckpoint = completed.getCheckpointId();
            if (failedInARow > 0 && completed.getCheckpointId() > lastFailedCheckpoint) {
                said.add(
                        "checkpoint "
                                + completed.getCheckpointId()
                                + " completed: committing again after "
                                + failedInARow
                                + (failedInARow == 1
                                        ? " failed checkpoint"
                                        : " failed checkpoints"));
                failedInARow = 0;
                lastSaid = "";
            }
        }
        return said;
    }

    private java.util.Optional<String> restarted(AccessExecutionGraph graph) {
        ErrorInfo failure = graph.getFailureInfo();
        if (failure == null || failure.getTimestamp() == lastFailureAt) {
            return java.util.Optional.empty();
        }
        JobStatus state = graph.getState();
        if (state.isGloballyTerminalState() || state == JobStatus.FAILING) {
            return java.util.Optional.empty(); // the run ends with this failure as its error
        }
        lastFailureAt = failure.getTimestamp();
        Throwable cause = failure.getException();
        return java.util.Optional.of(
                "the pipeline failed and restarts: "
                        + Failures.describe(cause)
                        + (DiskSpace.isFull(cause) ? "" : stateFolderFull()));
    }

    private String checkpointFailure(FailedCheckpointStats failed) {
        String message = failed.getFailureMessage();
        String why = message == null || message.isBlank() ? "" : " (" + message.strip() + ")";
        return why + stateFolderFull();
    }

    private String stateFolderFull() {
        return DiskSpace.isFull(stateDir)
                ? ": the state folder "
                        + stateDir
                        + " is full ("
                        + DiskSpace.free(stateDir)
                        + "); free space there"
                : "";
    }
}
