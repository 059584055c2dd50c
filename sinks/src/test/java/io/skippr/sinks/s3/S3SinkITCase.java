package io.skippr.sinks.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinks;
import io.skippr.sinks.testing.DuckDb;
import io.skippr.sinks.testing.GeneratedRows;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

/** Pipelines into S3Proxy: every row lands once, and only committed files are visible. */
class S3SinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
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

    /** Downloads the committed files; asserts they are all the data files the prefix shows. */
    private List<String> committedDownloads(S3FileStore store, String suffix) throws Exception {
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
        S3FileStore store =
                new S3FileStore(TestS3.connection(), TestS3.bucket(), TestS3.freshPrefix());
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        FileSinks.sink(
                        FileSinks.prepare(store, "orders", false, FileFormat.PARQUET, null),
                        FailPoint.NONE)
                .addTo(
                        GeneratedRows.stream(env, n, 4000, 2500, dir.resolve("failed-once")),
                        "it/sink/s3");
        env.execute("streaming exactly-once into S3");

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
        store.close();
    }

    @Test
    void theS3KindWritesABoundedRunFromItsSettings() throws Exception {
        // The S3 kind signs with the SDK's default chain: here the environment, which the
        // failsafe configuration fills with the test server's keys.
        assertThat(TestS3.env("AWS_ACCESS_KEY_ID"))
                .as("AWS_ACCESS_KEY_ID holds the test server's key (sinks/pom.xml, failsafe)")
                .isEqualTo(TestS3.env("SKIPPR_TEST_S3_ACCESS_KEY"));
        long n = 1500;
        String prefix = TestS3.freshPrefix();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("s3_bucket", TestS3.bucket());
        values.put("s3_prefix", prefix);
        values.put("endpoint", TestS3.env("SKIPPR_TEST_S3_ENDPOINT"));
        values.put("path_style_access", true);
        values.put("format", "jsonl");
        SinkContext context =
                new SinkContext(
                        "orders", "lake", new ResolvedSettings(null, values), true, null, "append");

        SkipprSink sink = new S3SinkFactory().create(context);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        sink.addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "it/sink/s3");
        env.execute("bounded into S3");

        try (S3FileStore store = new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix)) {
            List<String> files = committedDownloads(store, ".jsonl");
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id)"
                                            + " FROM read_json_auto($files)",
                                    files))
                    .containsExactly(n, n);
        }
        assertThat(new S3SinkFactory().create(context).committedPositions())
                .as("the run's position is read back from the bucket")
                .containsEntry("events", String.valueOf(n - 1));
    }
}
