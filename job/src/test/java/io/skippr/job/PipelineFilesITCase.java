package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Config;
import io.skippr.core.spi.FailPoint;
import io.skippr.job.query.WalQuery;
import io.skippr.sinks.files.CommitLog;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** File pipelines through the real job graph: WAL store, LocalFile sink, deadletters, recovery. */
class PipelineFilesITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(6)
                            .build());

    @TempDir Path dir;

    private Config config(String yaml) throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(file, yaml);
        return Config.load(file);
    }

    private static StreamExecutionEnvironment env(boolean streaming) {
        return TestFlink.env(streaming);
    }

    private PipelineGraph.Request request(Config cfg, boolean once, FailPoint fault) {
        return new PipelineGraph.Request(
                cfg.getPipeline("orders"), once, Map.of(), dir.resolve("state"), fault);
    }

    private static List<Object> one(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs = db.createStatement().executeQuery(sql)) {
            rs.next();
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                row.add(rs.getObject(i));
            }
            return row;
        }
    }

    private static String files(Path root) {
        return new CommitLog(root)
                .committedFiles().stream()
                        .map(f -> "'" + f + "'")
                        .collect(Collectors.joining(",", "[", "]"));
    }

    @Test
    void filesIntoTheWalStoreWithDeadlettersDiscardedAndLogged() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 701, 0);
        ShopFiles.write(dir.resolve("in"), "b.csv", 701, 1201, 2);
        Config cfg =
                config(
                        """
                pipelines:
                  orders: {data_source: data_sources.shop}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                """);
        StreamExecutionEnvironment env = env(false);
        PipelineGraph.build(env, request(cfg, true, FailPoint.NONE));

        try (LogCapture log = new LogCapture(DiscardedDeadletters.class)) {
            var result = env.execute("files to wal");
            var counters = Progress.byStream(result.getAllAccumulatorResults());
            assertThat(counters.get("orders"))
                    .containsEntry("read", 1202L)
                    .containsEntry("written", 1200L)
                    .containsEntry("deadlettered", 2L);
            assertThat(log.messages())
                    .containsExactly(
                            "Discarded 2 deadletter records because no deadletter sink is configured");
        }
        var rows =
                WalQuery.run(
                                dir.resolve("state"),
                                "SELECT count(*), count(DISTINCT"
                                        + " _skippr_id), sum(id), sum(amount) FROM orders")
                        .rows()
                        .get(0);
        assertThat(rows.subList(0, 3))
                .containsExactly("1200", "1200", String.valueOf(ShopFiles.idSum(1, 1201)));
        assertThat(new BigDecimal(rows.get(3)))
                .as("sum(amount)")
                .isEqualByComparingTo(
                        BigDecimal.valueOf(ShopFiles.idSum(1, 1201)).add(new BigDecimal("300.00")));
    }

    @Test
    void filesIntoLocalFileWithADeadletterSink() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 501, 1);
        Config cfg =
                config(
                        """
                pipelines:
                  orders:
                    data_source: data_sources.shop
                    data_sink: data_sinks.out
                    deadletter_sink: deadletter_sinks.rejects
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                data_sinks:
                  out:
                    LocalFile: {path: out}
                deadletter_sinks:
                  rejects:
                    LocalFile: {path: rejects, format: jsonl}
                """);
        StreamExecutionEnvironment env = env(false);
        PipelineGraph.build(env, request(cfg, true, FailPoint.NONE));
        env.execute("files to local files");

        assertThat(
                        one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(id) FROM read_parquet("
                                        + files(dir.resolve("out"))
                                        + ")"))
                .containsExactly(
                        500L, 500L, BigDecimal.valueOf(ShopFiles.idSum(1, 501)).toBigInteger());
        List<Object> deadletter =
                one(
                        "SELECT pipeline, stream, stage, error_class, error_message,"
                                + " source_position, payload, failed_at IS NOT NULL FROM read_json("
                                + files(dir.resolve("rejects"))
                                + ", format = 'newline_delimited')");
        assertThat(deadletter.subList(0, 4))
                .containsExactly("orders", "orders", "transform", "UndecodableRecord");
        assertThat((String) deadletter.get(4)).isNotBlank();
        assertThat((String) deadletter.get(5)).endsWith("a.csv#5");
        assertThat((String) deadletter.get(6)).contains("one field too many");
        assertThat(deadletter.get(7)).isEqualTo(true);
    }

    /**
     * Passes when a {@code --once} run whose data commit, or whose deadletter commit, fails for
     * good, followed by a clean rerun, leaves each row once in the data sink and each deadletter
     * once in the deadletter sink, JSONL files, a DuckDB table or a SkipprLake (Iceberg) table: the
     * deadletter sink commits first, the data sink (rows and positions) only after it, and a rerun
     * of the same data run replaces the deadletters the failed one committed.
     */
    @ParameterizedTest(name = "{0} fails, deadletters in {1}")
    @CsvSource({
        "BEFORE_COMMIT, jsonl",
        "BEFORE_COMMIT, duckdb",
        "BEFORE_COMMIT, skipprlake",
        "DEADLETTER_BEFORE_COMMIT, jsonl",
        "DEADLETTER_BEFORE_COMMIT, duckdb",
        "DEADLETTER_BEFORE_COMMIT, skipprlake"
    })
    void aOnceRunWhoseCommitFailsForGoodThenARerunKeepEachDeadletterOnce(
            FailPoint.Stage stage, String deadletters) throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 501, 3);
        Config cfg =
                config(
                        """
                pipelines:
                  orders:
                    data_source: data_sources.shop
                    data_sink: data_sinks.out
                    deadletter_sink: deadletter_sinks.rejects
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                data_sinks:
                  out:
                    LocalFile: {path: out}
                deadletter_sinks:
                  rejects:
                """
                                + deadletterSink(deadletters));
        StreamExecutionEnvironment failing = env(false);
        PipelineGraph.build(failing, request(cfg, true, FailPoint.throwAlways(stage, 1)));
        assertThatThrownBy(() -> failing.execute("a commit fails for good"))
                .hasStackTraceContaining(
                        "injected failure: " + FailPoint.Stage.BEFORE_COMMIT.label() + " #1");
        assertThat(new CommitLog(dir.resolve("out")).committedFiles())
                .as("the data sink committed nothing")
                .isEmpty();
        assertThat(new CommitLog(dir.resolve("out")).positions())
                .as("the source positions did not move")
                .isEmpty();
        assertThat(deadletters(deadletters))
                .as("the deadletter sink committed before the data sink's commit failed")
                .hasSize(stage == FailPoint.Stage.BEFORE_COMMIT ? 3 : 0);

        StreamExecutionEnvironment rerun = env(false);
        PipelineGraph.build(rerun, request(cfg, true, FailPoint.NONE));
        var counters = Progress.byStream(rerun.execute("the rerun").getAllAccumulatorResults());
        assertThat(counters.get("orders"))
                .containsEntry("written", 500L)
                .containsEntry("deadlettered", 3L);
        assertThat(
                        one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(id) FROM read_parquet("
                                        + files(dir.resolve("out"))
                                        + ")"))
                .containsExactly(
                        500L, 500L, BigDecimal.valueOf(ShopFiles.idSum(1, 501)).toBigInteger());
        String file = dir.resolve("in").resolve("a.csv").toString();
        assertThat(deadletters(deadletters))
                .as("each deadletter once, of data run 1")
                .containsExactly(
                        file + "#5 transform UndecodableRecord 1",
                        file + "#6 transform UndecodableRecord 1",
                        file + "#7 transform UndecodableRecord 1");
    }

    /** The deadletter sink entry of {@link #deadletters} {@code kind}. */
    private String deadletterSink(String kind) {
        return switch (kind) {
            case "jsonl" -> "    LocalFile: {path: rejects, format: jsonl}\n";
            case "duckdb" -> "    DuckDB: {path: rejects.duckdb}\n";
            case "skipprlake" -> "    SkipprLake: {warehouse: '" + dir.resolve("lake") + "'}\n";
            default -> throw new IllegalArgumentException(kind);
        };
    }

    /**
     * The deadletters the sink holds, one line each ({@code source_position stage error_class
     * data_run}), sorted: every JSONL file in its folder (committed or not), its DuckDB table, or
     * its SkipprLake table's current snapshot.
     */
    private List<String> deadletters(String kind) throws Exception {
        if (kind.equals("skipprlake")) {
            return lakeDeadletters();
        }
        String select =
                "SELECT source_position || ' ' || stage || ' ' || error_class || ' ' || data_run"
                        + " FROM ";
        List<String> out = new ArrayList<>();
        if (kind.equals("jsonl")) {
            Path root = dir.resolve("rejects").resolve("skippr_deadletters");
            if (!Files.isDirectory(root)) {
                return out;
            }
            List<String> jsonl;
            try (var walk = Files.walk(root)) {
                jsonl =
                        walk.filter(f -> f.toString().endsWith(".jsonl"))
                                .map(f -> "'" + f + "'")
                                .toList();
            }
            if (jsonl.isEmpty()) {
                return out;
            }
            select += "read_json([" + String.join(",", jsonl) + "], format = 'newline_delimited')";
            try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                    ResultSet rs = db.createStatement().executeQuery(select)) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
        } else {
            Path file = dir.resolve("rejects.duckdb");
            if (!Files.exists(file)) {
                return out;
            }
            try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + file);
                    ResultSet tables =
                            db.createStatement()
                                    .executeQuery(
                                            "SELECT count(*) FROM information_schema.tables"
                                                    + " WHERE table_name = 'skippr_deadletters'")) {
                tables.next();
                if (tables.getLong(1) == 0) {
                    return out;
                }
                try (ResultSet rs =
                        db.createStatement().executeQuery(select + "main.skippr_deadletters")) {
                    while (rs.next()) {
                        out.add(rs.getString(1));
                    }
                }
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    /**
     * Passes when a continuous run that follows a {@code --once} run whose data commit failed for
     * good (its deadletters committed, its data and positions did not) reads the same records again
     * and leaves each deadletter once: the failed attempt's deadletters belong to a data run that
     * never committed, so the continuous run of that data run removes them before it starts. A
     * {@code --once} run after it is not refused for the continuous run's deadletter commits and
     * adds nothing. On main the continuous run left each deadletter twice.
     */
    @Test
    void aContinuousRunAfterAFailedOnceRunKeepsEachDeadletterOnce() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 501, 3);
        Config cfg =
                config(
                        """
                pipelines:
                  orders:
                    data_source: data_sources.shop
                    data_sink: data_sinks.out
                    deadletter_sink: deadletter_sinks.rejects
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                data_sinks:
                  out:
                    LocalFile: {path: out}
                deadletter_sinks:
                  rejects:
                    LocalFile: {path: rejects, format: jsonl}
                """);
        StreamExecutionEnvironment failing = env(false);
        PipelineGraph.build(
                failing,
                request(cfg, true, FailPoint.throwAlways(FailPoint.Stage.BEFORE_COMMIT, 1)));
        assertThatThrownBy(() -> failing.execute("the data commit fails for good"))
                .hasStackTraceContaining(
                        "injected failure: " + FailPoint.Stage.BEFORE_COMMIT.label() + " #1");
        assertThat(deadletters("jsonl")).as("the failed attempt's deadletters").hasSize(3);

        StreamExecutionEnvironment continuous = env(true);
        PipelineGraph.build(continuous, request(cfg, false, FailPoint.NONE));
        JobClient job = continuous.executeAsync("continuous after the failed --once");
        try {
            awaitRows(dir.resolve("out"), 500);
            awaitContinuousDeadletters(dir.resolve("rejects"));
        } finally {
            job.cancel().get();
        }
        String file = dir.resolve("in").resolve("a.csv").toString();
        List<String> once =
                List.of(
                        file + "#5 transform UndecodableRecord 1",
                        file + "#6 transform UndecodableRecord 1",
                        file + "#7 transform UndecodableRecord 1");
        assertThat(deadletters("jsonl")).as("each deadletter once").containsExactlyElementsOf(once);

        StreamExecutionEnvironment again = env(false);
        PipelineGraph.build(again, request(cfg, true, FailPoint.NONE));
        var counters = Progress.byStream(again.execute("--once after").getAllAccumulatorResults());
        assertThat(counters.getOrDefault("orders", Map.of()))
                .as("nothing is read again")
                .doesNotContainEntry("written", 500L)
                .doesNotContainEntry("deadlettered", 3L);
        assertThat(deadletters("jsonl")).containsExactlyElementsOf(once);
        assertThat(
                        one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(id) FROM read_parquet("
                                        + files(dir.resolve("out"))
                                        + ")"))
                .containsExactly(
                        500L, 500L, BigDecimal.valueOf(ShopFiles.idSum(1, 501)).toBigInteger());
    }

    /** Polls until a continuous run committed deadletters into {@code root}, for a minute. */
    private static void awaitContinuousDeadletters(Path root) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (new CommitLog(root).effective().stream().anyMatch(c -> !c.bounded())) {
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
        throw new AssertionError("no continuous deadletter commit in " + root + " within a minute");
    }

    /** {@link #deadletters} of the SkipprLake deadletter sink, read as an Iceberg reader would. */
    private List<String> lakeDeadletters() throws Exception {
        List<String> out = new ArrayList<>();
        org.apache.iceberg.catalog.Catalog catalog =
                io.skippr.sinks.skipprlake.SkipprLakeCatalog.of(
                                "test.",
                                dir.resolve("lake").toString(),
                                null,
                                null,
                                null,
                                null,
                                null)
                        .open();
        try {
            var id = org.apache.iceberg.catalog.TableIdentifier.of("skippr", "skippr_deadletters");
            if (!catalog.tableExists(id)) {
                return out;
            }
            try (var rows =
                    org.apache.iceberg.data.IcebergGenerics.read(catalog.loadTable(id)).build()) {
                for (org.apache.iceberg.data.Record r : rows) {
                    out.add(
                            r.getField("source_position")
                                    + " "
                                    + r.getField("stage")
                                    + " "
                                    + r.getField("error_class")
                                    + " "
                                    + r.getField("data_run"));
                }
            }
        } finally {
            if (catalog instanceof java.io.Closeable closeable) {
                closeable.close();
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    @Test
    void continuousModeWithAnInjectedFailureLosesAndDuplicatesNoRow() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 2001, 0);
        Config cfg =
                config(
                        """
                pipelines:
                  orders: {data_source: data_sources.shop, data_sink: data_sinks.out}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                data_sinks:
                  out:
                    LocalFile: {path: out}
                """);
        StreamExecutionEnvironment env = env(true);
        Path marker = dir.resolve("failed-once");
        PipelineGraph.build(
                env,
                request(cfg, false, FailPoint.throwOnce(FailPoint.Stage.MID_BATCH, 700, marker)));
        JobClient job = env.executeAsync("continuous files");
        try {
            awaitRows(dir.resolve("out"), 2000);
            ShopFiles.write(dir.resolve("in"), "b.csv", 2001, 3001, 0);
            awaitRows(dir.resolve("out"), 3000);
        } finally {
            job.cancel().get();
        }
        assertThat(marker).as("the failure happened").exists();
        assertThat(
                        one(
                                "SELECT count(*), count(DISTINCT _skippr_id), sum(id) FROM read_parquet("
                                        + files(dir.resolve("out"))
                                        + ")"))
                .containsExactly(
                        3000L, 3000L, BigDecimal.valueOf(ShopFiles.idSum(1, 3001)).toBigInteger());
    }

    /** Polls the committed row count until it reaches {@code n}, for at most a minute. */
    private static void awaitRows(Path root, long n) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long rows = 0;
        while (System.nanoTime() < deadline) {
            rows = new CommitLog(root).committedRows();
            if (rows >= n) {
                return;
            }
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
        throw new AssertionError("only " + rows + " of " + n + " rows committed within a minute");
    }
}
