package io.skippr.sinks.files;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.spi.FailPoint;
import io.skippr.sinks.testing.DuckDb;
import io.skippr.sinks.testing.GeneratedRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two-phase file sink on one store (S3, SFTP, GCS), in a Flink job: a streaming run that fails
 * mid-stream lands every row once, and only committed files are visible. A store's sink test
 * extends this and adds what its kind's settings do.
 */
public abstract class FileStoreSinkCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir protected Path dir;

    /** A store on a root of its own. */
    protected abstract FileStore freshStore() throws Exception;

    protected static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(150);
        }
        return env;
    }

    /** Downloads the committed files; asserts they are all the data files the store shows. */
    protected List<String> committedDownloads(FileStore store, String suffix) throws Exception {
        List<String> committed = new CommitLog(store).committedKeys();
        assertThat(committed).isNotEmpty();
        assertThat(store.list("").stream().filter(k -> k.endsWith(suffix)))
                .as("every visible file is committed")
                .containsExactlyInAnyOrderElementsOf(committed);
        List<String> local = new ArrayList<>();
        for (String key : committed) {
            Path file = Files.createDirectories(dir.resolve("down")).resolve(local.size() + suffix);
            store.download(key, file);
            local.add(file.toString());
        }
        return local;
    }

    @Test
    void streamingWithAFailureMidStreamLandsEveryRowOnce() throws Exception {
        long n = 4000;
        try (FileStore store = freshStore()) {
            StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
            FileSinks.sink(
                            FileSinks.prepare(store, "orders", false, FileFormat.PARQUET, null),
                            FailPoint.NONE)
                    .addTo(
                            GeneratedRows.stream(env, n, 4000, 2500, dir.resolve("failed-once")),
                            "it/sink/" + getClass().getSimpleName());
            env.execute("streaming exactly-once into " + store.describe());

            assertThat(dir.resolve("failed-once")).as("the failure was injected").exists();
            List<String> files = committedDownloads(store, ".parquet");
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id), min(n), max(n),"
                                            + " sum(n) = "
                                            + n * (n - 1) / 2
                                            + " FROM read_parquet($files)",
                                    files))
                    .containsExactly(n, n, 0L, n - 1, true);
        }
    }
}
