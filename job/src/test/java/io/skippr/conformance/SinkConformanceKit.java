package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import io.skippr.config.catalog.Guarantee;
import io.skippr.job.FaultInjection;
import io.skippr.job.PipelineGraph;
import io.skippr.job.Progress;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract every data sink passes, against the real PostgreSQL as its source: a destination
 * adds a one-line subclass naming its {@link SinkFixture}. Each test states its pass condition.
 */
public abstract class SinkConformanceKit {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(8)
                            .build());

    @TempDir protected Path dir;
    private SinkFixture fixture;
    private SourceTable source;

    /** The destination under test. */
    protected abstract SinkFixture fixture() throws Exception;

    @BeforeEach
    void open() throws Exception {
        fixture = fixture();
        source = new SourceTable();
    }

    @AfterEach
    void close() throws Exception {
        source.close();
        fixture.close();
    }

    private PipelineGraph.Request request(
            String table, String cursor, boolean once, FaultInjection fault) throws Exception {
        return request(table, cursor, once, fault, "append");
    }

    private PipelineGraph.Request request(
            String table, String cursor, boolean once, FaultInjection fault, String writeMode)
            throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  p:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.dest\n    write_mode: "
                        + writeMode
                        + "\ndata_sources:\n  app_db:\n"
                        + source.yaml(table, cursor)
                        + "data_sinks:\n  dest:\n"
                        + fixture.sinkYaml(dir));
        Map<String, String> env = new HashMap<>(source.env());
        env.putAll(fixture.env());
        return new PipelineGraph.Request(
                Config.load(file).getPipeline("p"), once, env, dir.resolve("state"), fault);
    }

    private static StreamExecutionEnvironment env(boolean streaming) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        if (streaming) {
            env.enableCheckpointing(200);
        }
        return env;
    }

    private Map<String, Map<String, Long>> once(String table, String cursor) throws Exception {
        StreamExecutionEnvironment env = env(false);
        PipelineGraph.build(env, request(table, cursor, true, null));
        return Progress.byStream(env.execute("conformance --once").getAllAccumulatorResults());
    }

    /** Passes when the destination holds each source row once: count, ids and checksums. */
    private void assertHolds(String stream, long from, long to) throws Exception {
        List<Map<String, Object>> rows = fixture.rows(dir, stream);
        Set<Object> ids = new HashSet<>();
        Set<Long> keys = new HashSet<>();
        BigDecimal amounts = BigDecimal.ZERO;
        for (Map<String, Object> row : rows) {
            ids.add(row.get("_skippr_id"));
            keys.add(((Number) row.get("id")).longValue());
            amounts = amounts.add(new BigDecimal(String.valueOf(row.get("amount"))));
        }
        long n = to - from;
        assertThat(keys).as("every source row arrived").hasSize((int) n);
        assertThat(ids).as("distinct _skippr_id").hasSize((int) n);
        if (fixture.guarantee() == Guarantee.EXACTLY_ONCE) {
            assertThat(rows).as("exactly-once: no row twice").hasSize((int) n);
            assertThat(amounts).isEqualByComparingTo(SourceTable.amountSum(from, to));
        }
    }

    /**
     * Passes when a bounded run copies every row, and a second one over unchanged data adds none:
     * an exactly-once destination is not even sent them (its committed cursor says so); a
     * deduplicating one may receive them again, but holds each row once.
     */
    @Test
    void aSecondOnceRunOverUnchangedDataAddsNoRows() throws Exception {
        source.orders("orders", 1, 3001);
        var first = once("orders", "updated_at");
        assertThat(first.get("orders")).containsEntry("written", 3000L);
        assertHolds("orders", 1, 3001);

        var second = once("orders", "updated_at");
        if (fixture.guarantee() == Guarantee.EXACTLY_ONCE) {
            assertThat(second.getOrDefault("orders", Map.of()).getOrDefault("written", 0L))
                    .isZero();
        }
        assertHolds("orders", 1, 3001);
        assertThat(fixture.rows(dir, "orders"))
                .as("rows visible after the second run")
                .hasSize(3000);

        source.orders("orders", 3001, 3501);
        var third = once("orders", "updated_at");
        if (fixture.guarantee() == Guarantee.EXACTLY_ONCE) {
            assertThat(third.get("orders")).containsEntry("written", 500L);
        }
        assertHolds("orders", 1, 3501);
    }

    /**
     * Passes when a continuous run that fails once mid-stream (after pre-commit of some
     * checkpoints, before others complete) still delivers every row, exactly once where the
     * destination promises it.
     */
    @Test
    void continuousRunWithAnInjectedFailureLosesNothing() throws Exception {
        source.orders("orders", 1, 4001);
        StreamExecutionEnvironment env = env(true);
        PipelineGraph.build(
                env,
                request(
                        "orders",
                        "updated_at",
                        false,
                        new FaultInjection(900, dir.resolve("failed-once"))));
        JobClient job = env.executeAsync("conformance continuous");
        try {
            await(() -> keys("orders") >= 4000);
            source.orders("orders", 4001, 5001);
            await(() -> keys("orders") >= 5000);
        } finally {
            job.cancel().get();
        }
        assertThat(dir.resolve("failed-once")).as("the failure happened").exists();
        assertHolds("orders", 1, 5001);
    }

    /**
     * Passes when a column added at the source mid-run (a new schema version) lands before the rows
     * that use it, and the earlier rows stay as they were.
     */
    @Test
    void aColumnAddedMidRunLandsWithTheRowsThatUseIt() throws Exception {
        source.orders("orders", 1, 1001);
        StreamExecutionEnvironment env = env(true);
        PipelineGraph.build(env, request("orders", "updated_at", false, null));
        JobClient job = env.executeAsync("conformance schema evolution");
        try {
            await(() -> keys("orders") >= 1000);
            source.addNoteColumn("orders", 1001, 1201);
            await(() -> keys("orders") >= 1200);
        } finally {
            job.cancel().get();
        }
        Map<Long, Object> notes = new HashMap<>();
        for (Map<String, Object> row : fixture.rows(dir, "orders")) {
            notes.put(((Number) row.get("id")).longValue(), row.get("note"));
        }
        assertThat(notes.get(1100L)).isEqualTo("note 1100");
        assertThat(notes.get(5L)).isNull();
        assertHolds("orders", 1, 1201);
    }

    /**
     * Passes when a value the destination cannot store becomes a load-stage deadletter (and the
     * other rows land), or, where it can, arrives like any other.
     */
    @Test
    void aValueBeyondTheDestinationsRangeIsLoadedOrDeadlettered() throws Exception {
        source.orders("orders", 1, 201);
        source.extremeTimestamp("orders", 7);
        var counters = once("orders", null);
        if (fixture.storesExtremeTimestamps()) {
            assertThat(counters.get("orders")).containsEntry("written", 200L);
            assertHolds("orders", 1, 201);
        } else {
            assertThat(counters.get("orders"))
                    .containsEntry("written", 199L)
                    .containsEntry("deadlettered", 1L);
            assertThat(fixture.rows(dir, "orders"))
                    .hasSize(199)
                    .noneMatch(row -> ((Number) row.get("id")).longValue() == 7);
        }
    }

    /** Passes when each write mode the destination lacks is refused with a clear error. */
    @Test
    void writeModesAreHonouredOrRefusedClearly() throws Exception {
        source.orders("orders", 1, 101);
        for (String mode : List.of("merge", "replace")) {
            if (fixture.writeModes().contains(mode)) {
                continue; // covered by the destination's own write-mode tests
            }
            StreamExecutionEnvironment env = env(false);
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () ->
                                    PipelineGraph.build(
                                            env, request("orders", null, true, null, mode)))
                    .isInstanceOf(io.skippr.config.ConfigException.class)
                    .hasMessageContaining("pipelines.p.write_mode:")
                    .hasMessageContaining(
                            "sinks only append; write_mode " + mode + " needs a SQL destination");
        }
    }

    /** Passes when quotes, spaces, unicode and reserved words in names survive. */
    @Test
    void hostileIdentifiersLandUnderTheirNormalisedNames() throws Exception {
        source.hostile("Order \"Items\" ünï", 1, 51);
        once("Order \"Items\" ünï", null);
        List<Map<String, Object>> rows = fixture.rows(dir, "Order \"Items\" ünï");
        assertThat(rows).hasSize(50);
        assertThat(rows.get(0)).containsKeys("select", "two words", "naïve \"q\"");
    }

    private long keys(String stream) {
        try {
            Set<Long> keys = new HashSet<>();
            for (Map<String, Object> row : fixture.rows(dir, stream)) {
                keys.add(((Number) row.get("id")).longValue());
            }
            return keys.size();
        } catch (Exception e) {
            return 0; // the destination has nothing readable yet
        }
    }

    private static void await(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the destination did not catch up within 90 s");
            }
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
        }
    }
}
