package io.skippr.job;

import io.skippr.core.io.DiskSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.CheckpointStatsCounts;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.ErrorInfo;

/**
 * What a user must hear while a pipeline runs, read from the job's execution graph at each look:
 * checkpoints that fail (nothing new is committed until one completes), the checkpoint that
 * completes after them, and restarts with their cause. A state folder whose disk has less room than
 * two checkpoints of the last one's size is named as full. A warning starts with {@code "warning:
 * "}; the same one is said again at most once a minute.
 */
final class JobTrouble {
    static final String WARNING = "warning: ";
    private static final long REPEAT_MILLIS = 60_000;

    private final Path stateDir;
    private long lastFailureAt;
    private long failedSeen;
    private long failedInARow;
    private long lastCompletedCheckpoint = -1;
    private long lastCheckpointBytes;
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
        CheckpointStatsCounts counts = stats.getCounts();
        FailedCheckpointStats failed = stats.getHistory().getLatestFailedCheckpoint();
        CompletedCheckpointStats completed = stats.getHistory().getLatestCompletedCheckpoint();
        long newlyFailed = counts.getNumberOfFailedCheckpoints() - failedSeen;
        failedSeen = counts.getNumberOfFailedCheckpoints();
        if (completed != null && completed.getCheckpointId() != lastCompletedCheckpoint) {
            lastCompletedCheckpoint = completed.getCheckpointId();
            lastCheckpointBytes = completed.getStateSize();
            boolean after =
                    failed == null || completed.getCheckpointId() > failed.getCheckpointId();
            if (after && failedInARow + newlyFailed > 0) {
                long n = failedInARow + newlyFailed;
                said.add(
                        "checkpoint "
                                + completed.getCheckpointId()
                                + " completed: committing again after "
                                + n
                                + (n == 1 ? " failed checkpoint" : " failed checkpoints"));
                failedInARow = 0;
                newlyFailed = 0;
                lastSaid = "";
            }
        }
        if (newlyFailed > 0 && failed != null) {
            failedInARow += newlyFailed;
            String flink = flinkSays(failed.getFailureMessage());
            Optional<String> full = stateFolderFull();
            String key = flink + full.isPresent();
            if (!key.equals(lastSaid) || now - lastSaidAt >= REPEAT_MILLIS) {
                said.add(
                        WARNING
                                + "checkpoint "
                                + failed.getCheckpointId()
                                + " failed"
                                + full.map(f -> ": " + f + ".").orElse(".")
                                + " Until a checkpoint completes nothing new is committed, and"
                                + " nothing is lost."
                                + flink);
                lastSaid = key;
                lastSaidAt = now;
            }
        }
        return said;
    }

    private Optional<String> restarted(AccessExecutionGraph graph) {
        ErrorInfo failure = graph.getFailureInfo();
        if (failure == null || failure.getTimestamp() == lastFailureAt) {
            return Optional.empty();
        }
        JobStatus state = graph.getState();
        if (state.isGloballyTerminalState() || state == JobStatus.FAILING) {
            return Optional.empty(); // the run ends with this failure as its error
        }
        lastFailureAt = failure.getTimestamp();
        Throwable cause = failure.getException();
        String full =
                DiskSpace.isFull(cause) ? "" : stateFolderFull().map(f -> "; " + f).orElse("");
        return Optional.of(
                WARNING + "the pipeline failed and restarts: " + Failures.describe(cause) + full);
    }

    private static String flinkSays(String message) {
        return message == null || message.isBlank() ? "" : " (Flink: " + message.strip() + ")";
    }

    private Optional<String> stateFolderFull() {
        if (!DiskSpace.isFull(stateDir, 2 * lastCheckpointBytes)) {
            return Optional.empty();
        }
        return Optional.of(
                "the state folder "
                        + stateDir
                        + " is full"
                        + DiskSpace.free(stateDir).map(r -> " (" + r + ")").orElse("")
                        + "; free space there");
    }
}
