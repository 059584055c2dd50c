package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.sinks.sql.SqlSink;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.testing.GeneratedRows;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

/** The PostgreSQL sink under failures: every row lands exactly once, a failed run lands nothing. */
class PostgresSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;
    private TestPg pg;

    @BeforeEach
    void schema() {
        pg = new TestPg();
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    static StreamExecutionEnvironment env(RuntimeExecutionMode mode, int restarts) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        if (restarts > 0) {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofMillis(200));
        } else {
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(150);
        }
        return env;
    }

    /** count, distinct ids, sum, min and max of n: the checksum of rows 0..n-1 exactly once. */
    private void assertExactlyOnce(long n) throws Exception {
        assertThat(
                        TestPg.one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(n), min(n),"
                                        + " max(n), sum(score)::bigint FROM "
                                        + pg.table("events")))
                .containsExactly(
                        String.valueOf(n),
                        String.valueOf(n),
                        String.valueOf(n * (n - 1) / 2),
                        "0",
                        String.valueOf(n - 1),
                        String.valueOf(3 * n * (n - 1) / 4));
        assertThat(pg.staging()).as("no staging table is left").isEmpty();
    }

    @Test
    void streamingWithAFailureMidStreamLosesAndDuplicatesNothing() throws Exception {
        long n = 4000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING, 3);
        SqlSinkSettings settings = pg.prepare("orders", false, WriteMode.APPEND);
        GeneratedRows.stream(env, n, 4000, 2500, dir.resolve("failed-once"))
                .sinkTo(new SqlSink(settings))
                .uid("orders/sink/warehouse");
        env.execute("streaming exactly-once");

        assertThat(dir.resolve("failed-once")).as("the failure was injected").exists();
        assertExactlyOnce(n);
        assertThat(
                        TestPg.one(
                                "SELECT count(*) > 2, bool_and(NOT bounded), sum(rows) FROM "
                                        + pg.table("_skippr_commits")))
                .as("one marker per subtask and checkpoint that had rows")
                .containsExactly("t", "t", String.valueOf(n));
    }

    @Test
    void aBoundedRunThatFailsCommitsNothingAndItsRerunCommitsExactlyOnce() throws Exception {
        try (AutoCloseable staging = TestPg.stagingOnly()) {
            failThenRerun(true);
        }
    }

    @Test
    void aBoundedRunThatFailsOnTheFastPathCommitsNoRowAndItsRerunCommitsExactlyOnce()
            throws Exception {
        failThenRerun(false);
    }

    /** A bounded run fails at row 2900 of 3000; its rerun lands every row once. */
    private void failThenRerun(boolean staging) throws Exception {
        long n = 3000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH, 0);
        GeneratedRows.stream(env, n, 1_000_000, 2900, dir.resolve("failed-once"))
                .sinkTo(new SqlSink(pg.prepare("orders", true, WriteMode.APPEND)))
                .uid("orders/sink/warehouse");
        assertThatThrownBy(() -> env.execute("bounded, failing"))
                .hasStackTraceContaining("injected failure at row 2900");

        if (staging) {
            assertThat(pg.exists("events")).as("a failed run creates no table").isFalse();
        } else {
            assertThat(TestPg.one("SELECT count(*) FROM " + pg.table("events")))
                    .as("a failed run lands no row (its table may exist)")
                    .containsExactly("0");
        }
        assertThat(TestPg.one("SELECT count(*) FROM " + pg.table("_skippr_commits")))
                .containsExactly("0");
        SqlSinkSettings rerun = pg.prepare("orders", true, WriteMode.APPEND);
        assertThat(pg.prepared())
                .as("preparing the next run rolls back what the failed one prepared")
                .isEmpty();
        assertThat(rerun.run()).as("the failed run's number is used again").isEqualTo(1);
        assertThat(pg.staging()).as("preparing a bounded run drops old staging").isEmpty();
        assertThat(SqlSinks.committedPositions(rerun)).isEmpty();

        StreamExecutionEnvironment again = env(RuntimeExecutionMode.BATCH, 0);
        GeneratedRows.stream(again, n, 1_000_000, -1, null)
                .sinkTo(new SqlSink(rerun))
                .uid("orders/sink/warehouse");
        again.execute("bounded rerun");

        assertExactlyOnce(n);
        assertThat(
                        TestPg.rows(
                                "SELECT run, checkpoint, subtask, parallelism, bounded FROM "
                                        + pg.table("_skippr_commits")
                                        + " ORDER BY subtask"))
                .as("one marker row per subtask, committed together")
                .containsExactly(
                        List.of("1", "1", "0", "2", "t"), List.of("1", "1", "1", "2", "t"));
        assertThat(SqlSinks.committedPositions(pg.prepare("orders", true, WriteMode.APPEND)))
                .containsExactly(java.util.Map.entry("events", String.valueOf(n - 1)));
    }

    @Test
    void aBoundedRunWhoseSubtaskIsRestartedCommitsOnce() throws Exception {
        long n = 3000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH, 3);
        GeneratedRows.stream(env, n, 1_000_000, 2900, dir.resolve("failed-once"))
                .sinkTo(new SqlSink(pg.prepare("orders", true, WriteMode.APPEND)))
                .uid("orders/sink/warehouse");
        env.execute("bounded with a restart");

        assertThat(dir.resolve("failed-once")).exists();
        assertExactlyOnce(n);
    }
}
