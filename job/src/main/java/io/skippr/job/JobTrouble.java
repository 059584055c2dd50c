package io.skippr.job;

import io.skippr.core.io.DiskSpace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.checkpoint.CompletedCheckpointStats;
import org.apache.flink.runtime.checkpoint.FailedCheckpointStats;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.ErrorInfo;

/**
 * What a user must hear while a pipeline runs, read from the job's execution graph at each look:
 * checkpoints that fail (nothing new is committed until one completes), the checkpoint that
 * completes after them, and restarts with their cause. A state folder whose disk has less room than
 * two checkpoints of the last one's size, or less than 1 MiB, is named as out of room. A warning
 * starts with {@code "warning: "}; the same one is said again at most once a minute.
 */
final class JobTrouble {
    static final String WARNING = "warning: ";
    private static final long REPEAT_MILLIS = 60_000;

    private final Path stateDir;
    private long lastFailureAt;
    private long failedSeen;
    private long failedInARow;
    private long lastCompletedCheckpoint = -1;
    private long lastFailedCheckpoint = -1;
    private long lastCheckpointBytes;
    private String lastSaid = "";
    private long lastSaidAt;

    JobTrouble(Path stateDir) {
        this.stateDir = stateDir;
    }

    /** Lines about what changed since the last look; none when all is well. */
    List<String> look(AccessExecutionGraph graph, long now) {
        List<String> said = new ArrayList<>();
        restarted(graph).ifPresent(said::add);
        CheckpointStatsSnapshot stats = graph.getCheckpointStatsSnapshot();
        if (stats == null) {
            return said;
        }
        long failedNow = stats.getCounts().getNumberOfFailedCheckpoints();
        // a new execution graph (a rescheduled job) counts from 0 again
        long newlyFailed = failedNow >= failedSeen ? failedNow - failedSeen : failedNow;
        failedSeen = failedNow;
        FailedCheckpointStats failed = stats.getHistory().getLatestFailedCheckpoint();
        CompletedCheckpointStats completed = stats.getHistory().getLatestCompletedCheckpoint();
        if (completed != null && completed.getCheckpointId() != lastCompletedCheckpoint) {
            lastCompletedCheckpoint = completed.getCheckpointId();
            lastCheckpointBytes = completed.getCheckpointedSize();
            boolean failedSince =
                    failed != null && failed.getCheckpointId() > completed.getCheckpointId();
            long before = failedInARow + (failedSince ? 0 : newlyFailed);
            if (before > 0) {
                said.add(
                        "checkpoint "
                                + completed.getCheckpointId()
                                + " completed: committing again after "
                                + before
                                + (before == 1 ? " failed checkpoint" : " failed checkpoints"));
                lastSaid = "";
            }
            failedInARow = 0;
            if (!failedSince) {
                newlyFailed = 0;
            }
        }
        if (newlyFailed > 0) {
            failedInARow += newlyFailed;
            // a checkpoint that failed as it was triggered has no entry in the history
            boolean known = failed != null && failed.getCheckpointId() != lastFailedCheckpoint;
            if (known) {
                lastFailedCheckpoint = failed.getCheckpointId();
            }
            String flink = known ? flinkSays(failed.getFailureMessage()) : "";
            Optional<String> full = stateFolderFull();
            String key = flink.replaceAll("\\d+", "#") + full.isPresent();
            if (!key.equals(lastSaid) || now - lastSaidAt >= REPEAT_MILLIS) {
                said.add(
                        WARNING
                                + (known
                                        ? "checkpoint " + failed.getCheckpointId()
                                        : "a checkpoint")
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
        String last =
                lastCheckpointBytes >= 1024 * 1024
                        ? "; the last checkpoint wrote " + DiskSpace.bytes(lastCheckpointBytes)
                        : "";
        return Optional.of(
                "the state folder "
                        + stateDir
                        + " is out of room"
                        + DiskSpace.free(stateDir).map(r -> " (" + r + last + ")").orElse("")
                        + "; free space there");
    }
}
