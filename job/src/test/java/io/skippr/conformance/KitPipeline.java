package io.skippr.conformance;

import io.skippr.cli.SkipprdProcess;
import io.skippr.config.Config;
import io.skippr.core.spi.FailPoint;
import io.skippr.job.PipelineGraph;
import io.skippr.job.Progress;
import io.skippr.job.TestFlink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * Runs the kit's pipeline {@code p} (a source entry into the destination under test): bounded or
 * continuous on the kit's MiniCluster, or as a {@code skipprd} process.
 */
final class KitPipeline {
    private final Path dir;
    private final SinkFixture fixture;
    private final SourceTable source;
    private final MiniCluster cluster;

    KitPipeline(Path dir, SinkFixture fixture, SourceTable source, MiniCluster cluster) {
        this.dir = dir;
        this.fixture = fixture;
        this.source = source;
        this.cluster = cluster;
    }

    /**
     * The data source entry, the write mode and the fail point of one run, and whether it has a
     * deadletter sink ({@link #DEADLETTERS}).
     */
    record Run(String sourceYaml, String writeMode, FailPoint failPoint, boolean deadletters) {
        Run failing(FailPoint point) {
            return new Run(sourceYaml, writeMode, point, deadletters);
        }

        Run mode(String mode) {
            return new Run(sourceYaml, mode, failPoint, deadletters);
        }

        /** With a JSONL deadletter sink in the folder {@link #DEADLETTERS}. */
        Run withDeadletters() {
            return new Run(sourceYaml, writeMode, failPoint, true);
        }
    }

    /** The folder of the kit's deadletter sink, under the test's folder. */
    static final String DEADLETTERS = "deadletters";

    /** A run of {@code table} of the kit's PostgreSQL source, in append mode. */
    Run table(String table, String cursor) {
        return new Run(source.yaml(table, cursor), "append", FailPoint.NONE, false);
    }

    /** A run of another data source entry (four-space indented body). */
    Run sourceYaml(String yaml) {
        return new Run(yaml, "append", FailPoint.NONE, false);
    }

    private Path config(Run run) throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  p:\n    data_source: data_sources.src\n"
                        + "    data_sink: data_sinks.dest\n"
                        + (run.writeMode() == null ? "" : "    write_mode: " + run.writeMode())
                        + (run.deadletters()
                                ? "\n    deadletter_sink: deadletter_sinks.dl\ndeadletter_sinks:\n"
                                        + "  dl:\n    LocalFile: {path: "
                                        + DEADLETTERS
                                        + ", format: jsonl}"
                                : "")
                        + "\ndata_sources:\n  src:\n"
                        + run.sourceYaml()
                        + "data_sinks:\n  dest:\n"
                        + fixture.sinkYaml(dir)
                        + fixture.schemaSinksYaml(dir));
        return file;
    }

    Map<String, String> env() {
        Map<String, String> env = new HashMap<>(source.env());
        env.putAll(fixture.env());
        return env;
    }

    PipelineGraph.Request request(Run run, boolean once) throws Exception {
        return new PipelineGraph.Request(
                Config.load(config(run)).getPipeline("p"),
                once,
                env(),
                dir.resolve("state"),
                run.failPoint());
    }

    static StreamExecutionEnvironment flink(boolean streaming) {
        return TestFlink.env(streaming);
    }

    /** A bounded run on the MiniCluster; its counters per stream. */
    Map<String, Map<String, Long>> once(Run run) throws Exception {
        StreamExecutionEnvironment env = flink(false);
        PipelineGraph.build(env, request(run, true));
        try (AutoCloseable capture = fixture.capture(dir)) {
            return Progress.byStream(env.execute("conformance --once").getAllAccumulatorResults());
        }
    }

    /** A continuous run on the MiniCluster at parallelism 2, cancelled when closed. */
    Continuous start(Run run) throws Exception {
        return start(run, 2, null);
    }

    /**
     * A continuous run on the MiniCluster at {@code parallelism}, cancelled when closed; its
     * checkpoints go to {@code checkpoints/} and are retained on cancellation, as {@code skipprd}
     * keeps them (flink-conf/config.yaml). With {@code restore}, it resumes from that checkpoint,
     * as {@code skipprd} resumes from the latest one in its state folder.
     */
    Continuous start(Run run, int parallelism, Path restore) throws Exception {
        StreamExecutionEnvironment env = flink(true);
        env.setParallelism(parallelism);
        Configuration checkpoints = new Configuration();
        checkpoints.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints().toUri().toString());
        checkpoints.set(
                CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        env.configure(checkpoints);
        PipelineGraph.build(env, request(run, false));
        StreamGraph graph = env.getStreamGraph();
        if (restore != null) {
            graph.setSavepointRestoreSettings(
                    SavepointRestoreSettings.forPath(restore.toString(), false));
        }
        AutoCloseable capture = fixture.capture(dir);
        return new Continuous(env.executeAsync(graph), capture, cluster);
    }

    /** Where continuous runs keep their checkpoints. */
    Path checkpoints() {
        return dir.resolve("checkpoints");
    }

    /** A running continuous job. */
    record Continuous(JobClient job, AutoCloseable capture, MiniCluster cluster)
            implements AutoCloseable {
        /**
         * A quiet period: returns once the job completed two more checkpoints (at 200 ms each), so
         * that whatever the checkpoint before them held is committed and a late duplicate (a
         * replayed commit, a row read again) has landed before the kit checks again.
         */
        void quiet() throws Exception {
            long start = completedCheckpoints();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (completedCheckpoints() < start + 2) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the job completed no two checkpoints within 60 s");
                }
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            }
        }

        /** Where the job restored its state from: the checkpoint's path, or null. */
        String restoredFrom() throws Exception {
            var stats =
                    cluster.getExecutionGraph(job.getJobID()).get().getCheckpointStatsSnapshot();
            var restored = stats == null ? null : stats.getLatestRestoredCheckpoint();
            return restored == null ? null : restored.getExternalPath();
        }

        private long completedCheckpoints() throws Exception {
            var stats =
                    cluster.getExecutionGraph(job.getJobID()).get().getCheckpointStatsSnapshot();
            return stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
        }

        @Override
        public void close() throws Exception {
            try {
                job.cancel().get();
                job.getJobExecutionResult().handle((r, e) -> null).get();
            } finally {
                capture.close();
            }
        }
    }

    /**
     * {@code skipprd sync --once} as a process of its own; its exit code. A fail point given as
     * {@code before-commit} halts the process there, as {@code kill -9} would.
     */
    int process(String name, Run run, String failPoint) throws Exception {
        config(run);
        Map<String, String> env = env();
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        List<String> jvm = new ArrayList<>();
        if (failPoint != null) {
            jvm.add("-D" + FailPoint.PROPERTY + "=" + failPoint);
        }
        Process process =
                SkipprdProcess.start(
                        dir,
                        name,
                        env,
                        jvm,
                        "sync",
                        "--config",
                        dir.resolve("skippr.yml").toString(),
                        "--pipeline",
                        "p",
                        "--once");
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("skipprd " + name + " did not end within 180 s");
        }
        fixture.collect(dir, dir.resolve(name + ".out"));
        return process.exitValue();
    }

    /** The standard error of a process run. */
    String err(String name) throws Exception {
        return Files.readString(dir.resolve(name + ".err"));
    }

    /** A condition on what the destination holds; a read error fails the wait. */
    interface Condition {
        boolean holds() throws Exception;
    }

    /**
     * Polls {@code condition} until it holds, for at most 90 s; a read error fails at once, except
     * a file store whose files and commit records disagree ({@link
     * FileStoreFixture.UnrecordedFiles}): while a job runs, a commit may have published its files
     * and not yet written its record, so that fails only if it lasts until the deadline.
     */
    static void await(Condition condition) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (true) {
            try {
                if (condition.holds()) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the destination did not catch up within 90 s");
                }
            } catch (FileStoreFixture.UnrecordedFiles e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
    }
}
