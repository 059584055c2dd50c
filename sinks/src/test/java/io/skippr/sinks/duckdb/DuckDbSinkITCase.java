package io.skippr.sinks.duckdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.SqlSink;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.testing.GeneratedRows;
import io.skippr.sinks.testing.ScriptedRows;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * The DuckDB sink in a MiniCluster: two writer subtasks and the committers share one database
 * instance; every row lands exactly once under failures; a failed bounded run lands nothing; a
 * column added mid-stream; hostile names; a file another process holds.
 */
class DuckDbSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;
    private TestDuck duck;

    @BeforeEach
    void database() {
        duck = new TestDuck(dir, "raw");
    }

    /**
     * Every connection the writers and subtask committers opened is closed. One may remain after a
     * bounded run: Flink 2.1.1's GlobalCommitterOperator never calls {@code Committer.close()}, so
     * the global committer's connection stays open until the JVM exits (the instance it shares with
     * the rest of the JVM stays open with it).
     */
    @AfterEach
    void released() {
        for (int i = 0; i < 100 && DuckDbInstances.users(duck.database().url()) > 1; i++) {
            // Flink may close the last operators just after the job finished: poll, up to 5 s
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
        }
        assertThat(DuckDbInstances.users(duck.database().url())).isLessThanOrEqualTo(1);
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

    private void assertExactlyOnce(long n) throws Exception {
        assertThat(
                        duck.one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(n), min(n),"
                                        + " max(n), sum(score)::BIGINT FROM "
                                        + duck.table("events")))
                .containsExactly(
                        String.valueOf(n),
                        String.valueOf(n),
                        String.valueOf(n * (n - 1) / 2),
                        "0",
                        String.valueOf(n - 1),
                        String.valueOf(3 * n * (n - 1) / 4));
        assertThat(duck.staging()).as("no staging table is left").isEmpty();
    }

    @Test
    void streamingWithAFailureMidStreamLosesAndDuplicatesNothing() throws Exception {
        long n = 4000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING, 3);
        SqlSinkSettings settings = duck.prepare("orders", false, WriteMode.APPEND);
        GeneratedRows.stream(env, n, 4000, 2500, dir.resolve("failed-once"))
                .sinkTo(new SqlSink(settings))
                .uid("orders/sink/warehouse");
        env.execute("streaming exactly-once");

        assertThat(dir.resolve("failed-once")).as("the failure was injected").exists();
        assertExactlyOnce(n);
        assertThat(
                        duck.one(
                                "SELECT count(*) > 2, bool_and(NOT bounded), sum(rows) FROM "
                                        + duck.table("_skippr_commits")))
                .as("one marker per subtask and checkpoint that had rows")
                .containsExactly("true", "true", String.valueOf(n));
    }

    @Test
    void aBoundedRunThatFailsCommitsNothingAndItsRerunCommitsOnce() throws Exception {
        long n = 3000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH, 0);
        GeneratedRows.stream(env, n, 1_000_000, 2900, dir.resolve("failed-once"))
                .sinkTo(new SqlSink(duck.prepare("orders", true, WriteMode.APPEND)))
                .uid("orders/sink/warehouse");
        assertThatThrownBy(() -> env.execute("bounded, failing"))
                .hasStackTraceContaining("injected failure at row 2900");

        assertThat(duck.exists("events")).as("a failed run creates no table").isFalse();
        assertThat(duck.one("SELECT count(*) FROM " + duck.table("_skippr_commits")))
                .containsExactly("0");
        SqlSinkSettings rerun = duck.prepare("orders", true, WriteMode.APPEND);
        assertThat(rerun.run()).isEqualTo(1);
        assertThat(duck.staging()).as("preparing a bounded run drops old staging").isEmpty();

        StreamExecutionEnvironment again = env(RuntimeExecutionMode.BATCH, 0);
        GeneratedRows.stream(again, n, 1_000_000, -1, null)
                .sinkTo(new SqlSink(rerun))
                .uid("orders/sink/warehouse");
        again.execute("bounded rerun");

        assertExactlyOnce(n);
        assertThat(
                        duck.rows(
                                "SELECT run, checkpoint, subtask, parallelism, bounded FROM "
                                        + duck.table("_skippr_commits")
                                        + " ORDER BY subtask"))
                .as("one marker row per subtask, committed together")
                .containsExactly(
                        List.of("1", "1", "0", "2", "true"), List.of("1", "1", "1", "2", "true"));
        assertThat(SqlSinks.committedPositions(duck.prepare("orders", true, WriteMode.APPEND)))
                .containsExactly(Map.entry("events", String.valueOf(n - 1)));
    }

    /**
     * The deadletter sink of data run {@code dataRun} (as the job builds it, through the factory)
     * takes the pipeline's deadletters at {@code positions}, in a bounded or a continuous run.
     */
    private void deadletters(boolean bounded, long dataRun, String... positions) throws Exception {
        java.util.List<io.skippr.core.record.SourceRecord> records =
                io.skippr.sinks.DeadletterRecords.of(dataRun, positions);
        StreamExecutionEnvironment env =
                env(bounded ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING, 0);
        env.setParallelism(1); // the schema change reaches the one writer before the rows
        var stream = env.fromData(records, io.skippr.core.serde.SerializerTypeInfo.SOURCE_RECORD);
        deadletterSink(bounded, dataRun).addTo(stream, "orders/deadletters/rejects", null);
        env.execute("deadletters of data run " + dataRun);
    }

    private io.skippr.core.spi.SkipprSink deadletterSink(boolean bounded, long dataRun) {
        return DuckDbSinkFactory.sink(
                duck.database(),
                new io.skippr.core.spi.SinkContext(
                        "orders",
                        "rejects",
                        null,
                        bounded,
                        dir,
                        "append",
                        io.skippr.core.spi.FailPoint.NONE,
                        null,
                        dataRun),
                duck.schema);
    }

    private List<String> deadletterRows() throws Exception {
        return duck
                .rows(
                        "SELECT source_position || ' ' || data_run FROM "
                                + duck.table("skippr_deadletters")
                                + " ORDER BY source_position")
                .stream()
                .map(r -> r.get(0))
                .toList();
    }

    /**
     * A continuous deadletter sink after a failed {@code --once} attempt of the same data run (its
     * deadletters committed, its data did not) deletes that attempt's deadletters before it starts,
     * since it deadletters the same records again; a later start of the same data run (a restore)
     * deletes nothing, as its last run is continuous; and a {@code --once} run after the continuous
     * commits is not refused and replaces them. On main the continuous run's 3 deadletters were
     * added beside the attempt's, and the last run was refused ("continuous runs committed 3 rows
     * into data_sinks.rejects").
     */
    @Test
    void aContinuousDeadletterRunAfterAFailedOnceAttemptKeepsEachDeadletterOnce() throws Exception {
        deadletters(true, 1, "a.csv#5", "a.csv#6", "a.csv#7"); // the attempt; its data failed
        deadletters(false, 1, "a.csv#5", "a.csv#6", "a.csv#7"); // continuous, same data run
        List<String> once = List.of("a.csv#5 1", "a.csv#6 1", "a.csv#7 1");
        assertThat(deadletterRows()).containsExactlyElementsOf(once);
        deadletterSink(false, 1); // a restore of the continuous run
        assertThat(deadletterRows())
                .as("a restore deletes nothing")
                .containsExactlyElementsOf(once);
        deadletters(true, 1, "a.csv#5", "a.csv#6", "a.csv#7");
        assertThat(deadletterRows()).containsExactlyElementsOf(once);
        assertThat(
                        duck.one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(data_run) FROM "
                                        + duck.table("skippr_deadletters")))
                .containsExactly("3", "3", "3");
    }

    /**
     * A failed --once attempt committed deadletters of data run 2; its rerun's records no longer
     * fail (the user fixed the cause), so it has none: the attempt's are gone once it starts.
     * Before, they stayed beside the rows that loaded.
     */
    @Test
    void aOnceRerunWithoutDeadlettersKeepsNoneOfTheFailedAttempts() throws Exception {
        deadletters(true, 2, "b.csv#1", "b.csv#2"); // the attempt; its data failed
        deadletterSink(true, 2); // the rerun starts
        assertThat(deadletterRows()).isEmpty();
    }

    /** Version 1 of {@code Evolving}: id and name; version 2 adds {@code note} from row 500. */
    static final class AddColumn implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;
        static final StreamSchema V1 =
                new StreamSchema(
                        "Evolving",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("name", DataType.STRING)),
                        List.of("id"));
        static final StreamSchema V2 = V1.withColumns(List.of(Column.of("note", DataType.STRING)));

        @Override
        public StreamSchema schema(long i) {
            return i < 500 ? V1 : V2;
        }

        @Override
        public Object[] values(long i) {
            return i < 500 ? new Object[] {i, "n" + i} : new Object[] {i, "n" + i, "note " + i};
        }
    }

    @Test
    void aColumnAddedMidStreamIsAddedToTheTable() throws Exception {
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING, 0);
        env.setParallelism(1); // rows of both versions in order on one subtask
        ScriptedRows.stream(env, 1000, 2000, new AddColumn(), -1, null)
                .sinkTo(new SqlSink(duck.prepare("evolve", false, WriteMode.APPEND)))
                .uid("evolve/sink/warehouse");
        env.execute("add column");

        assertThat(
                        duck.rows(
                                "SELECT column_name, data_type FROM duckdb_columns() WHERE"
                                        + " schema_name = 'raw' AND table_name = 'evolving'"
                                        + " ORDER BY column_index"))
                .extracting(r -> r.get(0) + " " + r.get(1))
                .containsExactly(
                        "id BIGINT",
                        "name VARCHAR",
                        "_skippr_id VARCHAR",
                        "_skippr_synced_at TIMESTAMP WITH TIME ZONE",
                        "note VARCHAR");
        assertThat(
                        duck.one(
                                "SELECT count(*), count(DISTINCT id), count(note),"
                                        + " min(CASE WHEN note IS NOT NULL THEN id END),"
                                        + " max(CASE WHEN note IS NULL THEN id END) FROM "
                                        + duck.table("evolving")))
                .containsExactly("1000", "1000", "500", "500", "499");
    }

    /** A stream and columns whose names need quoting everywhere. */
    static final class Hostile implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;
        static final String LONG = "c".repeat(100);
        static final StreamSchema SCHEMA =
                new StreamSchema(
                        "Order \"Items\" ünï",
                        List.of(
                                Column.of("select", DataType.INT64),
                                Column.of("two words", DataType.STRING),
                                Column.of("naïve \"q\"", DataType.STRING),
                                Column.of("_skippr_id", DataType.STRING),
                                Column.of(LONG, DataType.INT32)),
                        List.of("select"));

        @Override
        public StreamSchema schema(long i) {
            return SCHEMA;
        }

        @Override
        public Object[] values(long i) {
            return new Object[] {i, "from", "ü'\"", "source id " + i, (int) i};
        }
    }

    @Test
    void hostileIdentifiersLandUnderTheirNormalisedNames() throws Exception {
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH, 0);
        ScriptedRows.stream(env, 50, 1_000_000, new Hostile(), -1, null)
                .sinkTo(new SqlSink(duck.prepare("hostile", true, WriteMode.MERGE)))
                .uid("hostile/sink/warehouse");
        env.execute("hostile");

        List<List<String>> tables =
                duck.rows(
                        "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'raw'"
                                + " AND table_name NOT LIKE '\\_skippr%' ESCAPE '\\'");
        assertThat(tables).hasSize(1);
        String table = tables.get(0).get(0);
        assertThat(
                        duck.one(
                                "SELECT count(*), sum(\"select\"), min(\"two words\"),"
                                        + " min(\"naïve \"\"q\"\"\"), min(_skippr_id_source),"
                                        + " sum(\""
                                        + Hostile.LONG
                                        + "\") FROM "
                                        + duck.table(table)))
                .containsExactly("50", "1225", "from", "ü'\"", "source id 0", "1225");
    }

    @Test
    void aDatabaseFileAnotherProcessHoldsGivesAClearError() throws Exception {
        duck.exec("CREATE TABLE t (x INTEGER)"); // the file exists
        Process holder =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                HoldDuckDb.class.getName(),
                                duck.file.toString())
                        .redirectErrorStream(true)
                        .start();
        try {
            BufferedReader out =
                    new BufferedReader(
                            new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("holding");
            assertThatThrownBy(() -> duck.prepare("orders", true, WriteMode.APPEND))
                    .isInstanceOf(SqlSinkException.class)
                    .hasMessageContaining("DuckDB database file " + duck.file)
                    .hasMessageContaining("is locked by another process")
                    .hasMessageContaining("PID " + holder.pid())
                    .hasMessageContaining("one process at a time");
        } finally {
            holder.destroy();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(duck.prepare("orders", true, WriteMode.APPEND).run())
                .as("free again once the other process is gone")
                .isEqualTo(1);
    }
}
