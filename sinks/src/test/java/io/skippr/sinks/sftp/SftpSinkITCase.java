package io.skippr.sinks.sftp;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Secret;
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

/**
 * Pipelines into the in-process SFTP server: every row lands once through a failure, and only
 * committed files are visible.
 */
class SftpSinkITCase {
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
    private List<String> committedDownloads(SftpFileStore store, String suffix) throws Exception {
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
        SftpFileStore store =
                new SftpFileStore(
                        TestSftpServer.get()
                                .passwordUser(
                                        TestSftpServer.freshFolder(), dir.resolve("known_hosts")));
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        FileSinks.sink(
                        FileSinks.prepare(store, "orders", false, FileFormat.PARQUET, null),
                        FailPoint.NONE)
                .addTo(
                        GeneratedRows.stream(env, n, 4000, 2500, dir.resolve("failed-once")),
                        "it/sink/sftp");
        env.execute("streaming exactly-once into SFTP");

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
    void theSftpKindWritesABoundedRunFromItsSettingsWithAKey() throws Exception {
        long n = 1500;
        TestSftpServer server = TestSftpServer.get();
        String folder = TestSftpServer.freshFolder();
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("host", "127.0.0.1");
        values.put("port", (long) server.port());
        values.put("user", TestSftpServer.KEY_USER);
        values.put("private_key_file", server.privateKeyFile().toString());
        values.put("private_key_passphrase", new Secret(TestSftpServer.KEY_PASSPHRASE));
        values.put("known_hosts_file", dir.resolve("known_hosts").toString());
        values.put("path", folder);
        values.put("format", "jsonl");
        SinkContext context =
                new SinkContext(
                        "orders", "drop", new ResolvedSettings(null, values), true, null, "append");

        SkipprSink sink = new SftpSinkFactory().create(context);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        sink.addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "it/sink/sftp");
        env.execute("bounded into SFTP");

        try (SftpFileStore store =
                new SftpFileStore(server.keyUser(folder, dir.resolve("known_hosts")))) {
            List<String> files = committedDownloads(store, ".jsonl");
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id)"
                                            + " FROM read_json_auto($files)",
                                    files))
                    .containsExactly(n, n);
        }
        assertThat(new SftpSinkFactory().create(context).committedPositions())
                .as("the run's position is read back from the server")
                .containsEntry("events", String.valueOf(n - 1));
    }
}
