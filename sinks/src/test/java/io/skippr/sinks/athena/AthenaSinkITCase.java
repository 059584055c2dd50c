package io.skippr.sinks.athena;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SinkContext;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.glue.FakeGlueServer;
import io.skippr.sinks.s3.S3FileStore;
import io.skippr.sinks.s3.TestS3;
import io.skippr.sinks.testing.DuckDb;
import io.skippr.sinks.testing.GeneratedRows;
import io.skippr.sinks.testing.ScriptedRows;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Athena sink in Flink jobs, into S3Proxy, with its Glue schema sink on the fake Glue server:
 * rows land once in daily partitions, and Glue holds each file's table, columns and partition
 * (registered at the folder that holds the file) before the file is staged and again when it is
 * published ({@link GlueCheckingStore} refuses otherwise and marks each file it checked).
 */
class AthenaSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static final String KEY = "orders-\\d{6}-\\d{3}-\\d{6}-\\d{6}\\.parquet";

    @TempDir Path dir;
    private FakeGlueServer glue;
    private String prefix;

    @BeforeEach
    void start() {
        glue = FakeGlueServer.start();
        prefix = TestS3.freshPrefix();
    }

    @AfterEach
    void stop() {
        glue.close();
    }

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

    private Map<String, Object> athena() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("s3_bucket", TestS3.bucket());
        values.put("s3_prefix", prefix);
        values.put("athena_workgroup_name", "primary");
        values.put("athena_results_s3_bucket", "acme-athena-results");
        values.put("region", TestS3.env("SKIPPR_TEST_S3_REGION"));
        values.put("s3_endpoint", TestS3.env("SKIPPR_TEST_S3_ENDPOINT"));
        return values;
    }

    private ResolvedSettings glueEntry() {
        Map<String, Object> values = athena();
        values.remove("s3_endpoint");
        values.put("glue_database_name", "bronze");
        values.put("glue_endpoint", glue.endpoint());
        return new ResolvedSettings(null, values);
    }

    private SinkContext context(boolean bounded, ResolvedSettings schemaSink) {
        return new SinkContext(
                "orders",
                "lake",
                new ResolvedSettings(null, athena()),
                bounded,
                dir,
                "append",
                FailPoint.NONE,
                schemaSink);
    }

    private S3FileStore s3() {
        return new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix);
    }

    private FileStore checked() {
        return new GlueCheckingStore(s3(), glue.endpoint(), "bronze");
    }

    /** Downloads the committed files; asserts they are every data file the bucket shows. */
    private List<String> committed(FileStore store, String stream, List<String> days)
            throws Exception {
        List<String> keys = new CommitLog(store).committedKeys();
        assertThat(keys).isNotEmpty();
        assertThat(store.list(stream + "/"))
                .as("every visible file is committed")
                .containsExactlyInAnyOrderElementsOf(keys);
        List<String> local = new ArrayList<>();
        for (String key : keys) {
            assertThat(key).matches(stream + "/dt=(" + String.join("|", days) + ")/" + KEY);
            Path file = Files.createDirectories(dir.resolve("down")).resolve(local.size() + ".pq");
            store.download(key, file);
            local.add(file.toString());
        }
        return local;
    }

    /**
     * The data files the bucket shows for a stream, as the URIs a reader of Glue's locations finds
     * them under: {@code s3://bucket/prefix/<stream>/dt=.../<file>}.
     */
    private List<String> files(FileStore store, String stream) throws Exception {
        List<String> uris = new ArrayList<>();
        for (String key : store.list(stream + "/")) {
            uris.add("s3://" + TestS3.bucket() + "/" + prefix + "/" + key);
        }
        assertThat(uris).isNotEmpty();
        return uris;
    }

    private static Map<String, String> columns(JsonNode table) {
        Map<String, String> columns = new LinkedHashMap<>();
        for (JsonNode c : table.path("StorageDescriptor").path("Columns")) {
            columns.put(c.path("Name").asText(), c.path("Type").asText());
        }
        return columns;
    }

    private static String today() {
        return LocalDate.now(ZoneOffset.UTC).toString();
    }

    @Test
    void aBoundedRunLandsEveryRowInADailyPartitionThatGlueHeldBeforeTheFilesWerePublished()
            throws Exception {
        long n = 3000;
        String dayBefore = today();
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        AthenaSinkFactory.sink(context(true, glueEntry()), checked())
                .addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "it/sink/athena");
        env.execute("bounded into Athena");
        List<String> days = List.of(dayBefore, today());

        try (FileStore store = s3()) {
            List<String> files = committed(store, "events", days);
            for (String key : new CommitLog(store).committedKeys()) {
                assertThat(store.exists(GlueCheckingStore.MARKERS + key))
                        .as("Glue was checked before " + key + " was published")
                        .isTrue();
            }
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id), sum(n) = "
                                            + n * (n - 1) / 2
                                            + ", sum(score) = "
                                            + 1.5 * n * (n - 1) / 2
                                            + " FROM read_parquet($files)",
                                    files))
                    .containsExactly(n, n, true, true);
            glue.assertPartitionsHold("bronze", "events", files(store, "events"));
        }
        assertThat(glue.tables("bronze")).containsExactly("events");
        JsonNode table = glue.table("bronze", "events").orElseThrow();
        assertThat(columns(table))
                .containsExactly(
                        Map.entry("n", "bigint"),
                        Map.entry("name", "string"),
                        Map.entry("score", "double"),
                        Map.entry("_skippr_id", "string"),
                        Map.entry("_skippr_synced_at", "timestamp"));
        assertThat(table.path("StorageDescriptor").path("Location").asText())
                .isEqualTo("s3://" + TestS3.bucket() + "/" + prefix + "/events/");
        assertThat(glue.partitions("bronze", "events"))
                .isNotEmpty()
                .allSatisfy(values -> assertThat(days).contains(values.get(0)));
        assertThat(new AthenaSinkFactory().create(context(true, glueEntry())).committedPositions())
                .as("the run's position is read back from the bucket")
                .containsEntry("events", String.valueOf(n - 1));
    }

    /** Orders whose second half carries a column the first half lacks. */
    static final class GrowingOrders implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;
        static final StreamSchema V1 =
                new StreamSchema(
                        "orders",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("amount", DataType.decimal(12, 2))),
                        List.of("id"),
                        "id");
        static final StreamSchema V2 = V1.withColumns(List.of(Column.of("note", DataType.STRING)));
        private final long n;

        GrowingOrders(long n) {
            this.n = n;
        }

        @Override
        public StreamSchema schema(long i) {
            return i < n / 2 ? V1 : V2;
        }

        @Override
        public Object[] values(long i) {
            BigDecimal amount = BigDecimal.valueOf(i * 125, 2);
            return i < n / 2 ? new Object[] {i, amount} : new Object[] {i, amount, "note-" + i};
        }
    }

    @Test
    void aStreamingRunThatFailsOnceAndAddsAColumnLandsEachRowOnceAfterItsColumn() throws Exception {
        long n = 4000;
        String dayBefore = today();
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING);
        AthenaSinkFactory.sink(context(false, glueEntry()), checked())
                .addTo(
                        ScriptedRows.stream(
                                env, n, 4000, new GrowingOrders(n), 2900, dir.resolve("failed")),
                        "it/sink/athena");
        env.execute("streaming into Athena");
        List<String> days = List.of(dayBefore, today());

        assertThat(dir.resolve("failed")).as("the failure was injected").exists();
        try (FileStore store = s3()) {
            List<String> files = committed(store, "orders", days);
            for (String key : new CommitLog(store).committedKeys()) {
                assertThat(store.exists(GlueCheckingStore.MARKERS + key)).isTrue();
            }
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id), sum(id) = "
                                            + n * (n - 1) / 2
                                            + ", sum(amount) = "
                                            + BigDecimal.valueOf(125 * n * (n - 1) / 2, 2)
                                            + ", count(note), min(id) FILTER (WHERE note IS NOT"
                                            + " NULL)"
                                            + " FROM read_parquet($files, union_by_name = true)",
                                    files))
                    .containsExactly(n, n, true, true, n - n / 2, n / 2);
            glue.assertPartitionsHold("bronze", "orders", files(store, "orders"));
        }
        // Either subtask may open its first file on either schema version (the source splits the
        // rows between them), so the table is created with or without "note" first.
        JsonNode table = glue.table("bronze", "orders").orElseThrow();
        assertThat(columns(table))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "id", "bigint",
                                "amount", "decimal(12,2)",
                                "_skippr_id", "string",
                                "_skippr_synced_at", "timestamp",
                                "note", "string"));
        assertThat(table.path("VersionId").asText())
                .as("created, then at most one update: the added column")
                .isIn("1", "2");
    }

    @Test
    void withoutASchemaSinkTheFilesLandAloneInDailyPartitions() throws Exception {
        long n = 1000;
        String dayBefore = today();
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH);
        new AthenaSinkFactory()
                .create(context(true, null))
                .addTo(GeneratedRows.stream(env, n, 1_000_000, -1, null), "it/sink/athena");
        env.execute("bounded into Athena, no Glue");

        try (FileStore store = s3()) {
            List<String> files = committed(store, "events", List.of(dayBefore, today()));
            assertThat(
                            DuckDb.row(
                                    "SELECT count(*), count(DISTINCT _skippr_id)"
                                            + " FROM read_parquet($files)",
                                    files))
                    .containsExactly(n, n);
        }
        assertThat(glue.calls()).as("no Glue without a schema sink").isEmpty();
    }
}
