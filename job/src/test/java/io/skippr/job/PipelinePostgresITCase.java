package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import io.skippr.job.query.WalQuery;
import io.skippr.sinks.files.CommitLog;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** PostgreSQL pipelines against the real server: WAL store, LocalFile, incremental runs. */
class PipelinePostgresITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(6)
                            .build());

    private static final String CHECKSUM =
            "SELECT count(*), count(DISTINCT id), sum(id),"
                    + " sum(amount), sum(customer_id) FROM orders";

    @TempDir Path dir;
    private TestPostgres pg;

    @BeforeEach
    void orders() throws Exception {
        pg = new TestPostgres();
        pg.exec(
                "CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int NOT NULL,"
                        + " amount numeric(12,2), status text, updated_at timestamptz NOT NULL)",
                "INSERT INTO orders SELECT i, i % 97, i * 1.25, CASE WHEN i % 3 = 0 THEN"
                        + " 'paid' ELSE 'new' END, timestamptz '2026-11-01 00:00:00Z' + i *"
                        + " interval '1 second' FROM generate_series(1, 5000) i");
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    private PipelineGraph.Request request(String sink, String cursor) throws Exception {
        Path file = dir.resolve("skippr.yml");
        Files.writeString(
                file,
                "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                        + (sink == null ? "" : "    data_sink: data_sinks.out\n")
                        + "data_sources:\n  app_db:\n"
                        + pg.sourceYaml("orders", cursor)
                        + (sink == null
                                ? ""
                                : "data_sinks:\n  out:\n    LocalFile: {path: " + sink + "}\n"));
        return new PipelineGraph.Request(
                Config.load(file).getPipeline("orders"),
                true,
                TestPostgres.passwordEnv(),
                dir.resolve("state"));
    }

    private static Map<String, Map<String, Long>> runOnce(PipelineGraph.Request request)
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        PipelineGraph.build(env, request);
        return Progress.byStream(env.execute("postgres --once").getAllAccumulatorResults());
    }

    private static List<String> parquet(Path root, String sql) throws Exception {
        String files =
                new CommitLog(root)
                        .committedFiles().stream()
                                .map(f -> "'" + f + "'")
                                .collect(Collectors.joining(",", "[", "]"));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs =
                        db.createStatement()
                                .executeQuery(
                                        sql.replace(
                                                "FROM orders",
                                                "FROM read_parquet(" + files + ")"))) {
            rs.next();
            return List.of(
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    new BigDecimal(rs.getString(4)).toPlainString(),
                    rs.getString(5));
        }
    }

    private List<String> source() throws Exception {
        List<String> row = pg.one(CHECKSUM);
        return List.of(
                row.get(0),
                row.get(1),
                row.get(2),
                new BigDecimal(row.get(3)).toPlainString(),
                row.get(4));
    }

    @Test
    void postgresIntoTheWalStoreMatchesTheSourceRowForRow() throws Exception {
        var counters = runOnce(request(null, null));

        assertThat(counters.get("orders"))
                .containsEntry("read", 5000L)
                .containsEntry("written", 5000L);
        List<String> wal = WalQuery.run(dir.resolve("state"), CHECKSUM).rows().get(0);
        assertThat(
                        List.of(
                                wal.get(0),
                                wal.get(1),
                                wal.get(2),
                                new BigDecimal(wal.get(3)).toPlainString(),
                                wal.get(4)))
                .isEqualTo(source());
    }

    @Test
    void postgresIntoLocalFilesMatchesTheSourceAndASecondRunCopiesOnlyNewOrChangedRows()
            throws Exception {
        Path out = dir.resolve("out");
        runOnce(request(out.toString(), "updated_at"));
        assertThat(parquet(out, CHECKSUM)).isEqualTo(source());

        pg.exec(
                "INSERT INTO orders SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                        + " '2026-11-02 00:00:00Z' + i * interval '1 second' FROM"
                        + " generate_series(5001, 5300) i",
                "UPDATE orders SET status = 'refunded', updated_at = timestamptz"
                        + " '2026-11-03 00:00:00Z' WHERE id <= 10");
        var second = runOnce(request(out.toString(), "updated_at"));

        assertThat(second.get("orders"))
                .as("300 new and 10 changed rows")
                .containsEntry("read", 310L)
                .containsEntry("written", 310L);
        assertThat(
                        parquet(
                                out,
                                "SELECT count(*), count(DISTINCT id), sum(id), sum(amount),"
                                        + " sum(customer_id) FROM (SELECT * FROM orders QUALIFY row_number() OVER"
                                        + " (PARTITION BY id ORDER BY updated_at DESC) = 1)"))
                .isEqualTo(source());
        var third = runOnce(request(out.toString(), "updated_at"));
        assertThat(third.getOrDefault("orders", Map.of()).getOrDefault("read", 0L))
                .as("nothing changed")
                .isZero();
    }

    @Test
    void aValueTheSinkCannotTakeIsDeadletteredWithTheExactDiscardLine() throws Exception {
        pg.exec(
                "ALTER TABLE orders ALTER COLUMN amount TYPE numeric",
                "UPDATE orders SET amount = 'NaN' WHERE id IN (7, 8)");
        try (LogCapture log = new LogCapture(DiscardedDeadletters.class)) {
            var counters = runOnce(request(null, null));
            assertThat(counters.get("orders"))
                    .containsEntry("written", 4998L)
                    .containsEntry("deadlettered", 2L);
            assertThat(log.messages())
                    .containsExactly(
                            "Discarded 2 deadletter records because no deadletter sink is configured");
        }
    }
}
