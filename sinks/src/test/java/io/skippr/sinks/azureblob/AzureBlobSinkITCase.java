package io.skippr.sinks.azureblob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.Secret;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.testing.DuckDb;
import io.skippr.sinks.testing.GeneratedRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The AzureBlob sink, built by its factory, into Azurite: every row lands exactly once. */
class AzureBlobSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;
    private final TestAzurite azurite = new TestAzurite();

    @AfterEach
    void dropContainers() {
        azurite.close();
    }

    private static SinkFactory factory() {
        return ServiceLoader.load(SinkFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.kind().equals("AzureBlob"))
                .findFirst()
                .orElseThrow();
    }

    private static Map<String, Object> settings(String container) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("account_name", TestAzurite.account());
        values.put("account_key", new Secret(TestAzurite.key()));
        values.put("container", container);
        values.put("prefix", "lake/raw");
        values.put("endpoint", TestAzurite.endpoint());
        return values;
    }

    private static SinkContext context(Map<String, Object> values, boolean bounded, String mode) {
        return new SinkContext(
                "orders", "lake", new ResolvedSettings(null, values), bounded, null, mode);
    }

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                java.time.Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(150);
        }
        return env;
    }

    /** Downloads every committed file and checks rows 0..n-1 are each there once. */
    private void assertExactlyOnce(AzureBlobFileStore store, long n) throws Exception {
        List<String> keys = new CommitLog(store).committedKeys();
        assertThat(keys).isNotEmpty();
        assertThat(store.list("").stream().filter(k -> k.endsWith(".parquet")))
                .as("every visible file is committed")
                .containsExactlyInAnyOrderElementsOf(keys);
        List<String> files = new ArrayList<>();
        for (String key : keys) {
            Path local = dir.resolve("back-" + files.size() + ".parquet");
            store.download(key, local);
            files.add(local.toString());
        }
        assertThat(
                        DuckDb.row(
                                "SELECT count(*), count(DISTINCT n), min(n), max(n),"
                                        + " sum(n) = "
                                        + n * (n - 1) / 2
                                        + " FROM read_parquet($files)",
                                files))
                .containsExactly(n, n, 0L, n - 1, true);
    }

    private static AzureBlobFileStore store(String container) {
        return new AzureBlobFileStore(
                TestAzurite.account(),
                new Secret(TestAzurite.key()),
                container,
                "lake/raw",
                TestAzurite.endpoint());
    }

    @Test
    void streamingWithAFailureMidStreamLosesAndDuplicatesNothing() throws Exception {
        long n = 3000;
        String container = azurite.container().getBlobContainerName();
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        factory()
                .create(context(settings(container), false, "append"))
                .addTo(
                        GeneratedRows.stream(env, n, 3000, 2000, dir.resolve("failed-once")),
                        "azure-blob");
        env.execute("streaming exactly-once into Azure Blob");

        assertThat(dir.resolve("failed-once")).as("the failure was injected").exists();
        assertExactlyOnce(store(container), n);
    }

    @Test
    void aBoundedRunCommitsOnceAndRecordsItsPosition() throws Exception {
        long n = 1000;
        String container = azurite.container().getBlobContainerName();
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        factory()
                .create(context(settings(container), true, "append"))
                .addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "azure-blob");
        env.execute("bounded into Azure Blob");

        AzureBlobFileStore store = store(container);
        assertExactlyOnce(store, n);
        assertThat(new CommitLog(store).positions()).containsEntry("events", String.valueOf(n - 1));
    }

    @Test
    void aMissingKeyOrAWriteModeOtherThanAppendIsAConfigurationError() {
        Map<String, Object> values = settings("any");
        values.remove("account_key");
        assertThatThrownBy(() -> factory().create(context(values, true, "append")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("data_sinks.lake.account_key");
        assertThatThrownBy(() -> factory().create(context(settings("any"), true, "merge")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("AzureBlob sinks only append");
    }
}
