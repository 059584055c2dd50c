package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.checkpoint.CheckpointStatsFixture;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.ErrorInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link JobTrouble} says as a job's checkpoints fail and complete, and as it restarts. */
class JobTroubleTest {
    private static final String NOTHING_LOST =
            " Until a checkpoint completes nothing new is committed, and nothing is lost.";

    @TempDir Path stateDir;

    private final CheckpointStatsFixture checkpoints = new CheckpointStatsFixture();
    private ErrorInfo failure;
    private JobStatus state = JobStatus.RUNNING;

    @Test
    void aFailureIsSaidOnceAMinuteAndTheRecoveryCountsEveryFailure() {
        JobTrouble trouble = new JobTrouble(stateDir);
        checkpoints.complete(1);
        assertThat(trouble.look(graph(), 0)).isEmpty();

        checkpoints.fail(2, "Failure to finalize checkpoint 2.");
        assertThat(trouble.look(graph(), 1_000))
                .containsExactly(
                        "warning: checkpoint 2 failed."
                                + NOTHING_LOST
                                + " (Flink: Failure to finalize checkpoint 2.)");
        checkpoints.fail(3, "Failure to finalize checkpoint 3.");
        assertThat(trouble.look(graph(), 2_000)).as("the same failure again").isEmpty();
        checkpoints.fail(4, "Failure to finalize checkpoint 4.");
        assertThat(trouble.look(graph(), 62_000))
                .as("a minute later")
                .containsExactly(
                        "warning: checkpoint 4 failed."
                                + NOTHING_LOST
                                + " (Flink: Failure to finalize checkpoint 4.)");

        checkpoints.complete(5);
        assertThat(trouble.look(graph(), 63_000))
                .containsExactly(
                        "checkpoint 5 completed: committing again after 3 failed checkpoints");
        assertThat(trouble.look(graph(), 64_000)).isEmpty();
    }

    @Test
    void aCheckpointThatFailedAsItWasTriggeredIsSaidWithoutANumber() {
        JobTrouble trouble = new JobTrouble(stateDir);
        checkpoints.failAtTrigger();
        assertThat(trouble.look(graph(), 0))
                .containsExactly("warning: a checkpoint failed." + NOTHING_LOST);
        checkpoints.complete(2);
        assertThat(trouble.look(graph(), 1_000))
                .containsExactly(
                        "checkpoint 2 completed: committing again after 1 failed checkpoint");
    }

    @Test
    void aRecoveryAndANewFailureBetweenTwoLooksAreBothSaid() {
        JobTrouble trouble = new JobTrouble(stateDir);
        checkpoints.fail(1, "timed out");
        assertThat(trouble.look(graph(), 0)).hasSize(1);
        checkpoints.complete(2);
        checkpoints.fail(3, "timed out");
        assertThat(trouble.look(graph(), 1_000))
                .containsExactly(
                        "checkpoint 2 completed: committing again after 1 failed checkpoint",
                        "warning: checkpoint 3 failed." + NOTHING_LOST + " (Flink: timed out)");
    }

    @Test
    void aRestartIsSaidOnceWithItsCauseAndAFinalFailureIsLeftToTheError() {
        JobTrouble trouble = new JobTrouble(stateDir);
        failure = new ErrorInfo(new IOException("Connection reset"), 5);
        state = JobStatus.RESTARTING;
        assertThat(trouble.look(graph(), 0))
                .containsExactly(
                        "warning: the pipeline failed and restarts: IOException: Connection reset");
        state = JobStatus.RUNNING;
        assertThat(trouble.look(graph(), 1_000)).isEmpty();

        failure = new ErrorInfo(new IOException("Connection refused"), 9);
        state = JobStatus.FAILED;
        assertThat(trouble.look(graph(), 2_000)).isEmpty();
    }

    /** The execution graph as JobTrouble reads it: checkpoint stats, failure, state. */
    private AccessExecutionGraph graph() {
        return (AccessExecutionGraph)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {AccessExecutionGraph.class},
                        (proxy, method, args) ->
                                switch (method.getName()) {
                                    case "getCheckpointStatsSnapshot" -> checkpoints.snapshot();
                                    case "getFailureInfo" -> failure;
                                    case "getState" -> state;
                                    default ->
                                            throw new UnsupportedOperationException(
                                                    method.getName());
                                });
    }
}
