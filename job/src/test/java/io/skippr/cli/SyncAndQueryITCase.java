package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart (files into DuckDB) through {@code skipprd sync --once} and {@code skipprd query},
 * in-process; and query over the WAL store of a pipeline without a data sink.
 */
class SyncAndQueryITCase {
    @TempDir Path dir;

    private Path quickstart() throws IOException {
        return Quickstart.copyTo(dir);
    }

    /** {@code skipprd query} of the orders' count, distinct ids and sum of ids. */
    private CliRun ordersSummary(Path config) {
        return query(
                config,
                "SELECT count(*) AS orders, count(DISTINCT _skippr_id) AS ids,"
                        + " sum(id) AS ids_sum FROM orders");
    }

    /** {@code skipprd query --config CONFIG --pipeline orders SQL}, with the state in dir/state. */
    private CliRun query(Path config, String sql) {
        return CliRun.run(
                dir,
                Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString()),
                "query",
                "--config",
                config.toString(),
                "--pipeline",
                "orders",
                sql);
    }

    @Test
    void theQuickstartSyncsOnceAndItsRowsCanBeQueried() throws IOException {
        Path config = quickstart();

        CliRun sync = CliRun.syncOnce(dir, config, "orders");

        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err())
                .contains("Flink web UI: http://127.0.0.1:")
                .contains(
                        "Pipeline sync complete: 1 streams, 41 records read, 40 written, 1"
                                + " deadlettered");
        assertThat(sync.err()).containsPattern("orders\\s+41\\s+40\\s+1");

        CliRun query = ordersSummary(config);

        assertThat(query.exitCode()).as(query.all()).isZero();
        assertThat(query.out())
                .isEqualTo(
                        """
                orders | ids | ids_sum
                -------+-----+--------
                40     | 40  | 820    \n(1 row)
                """);
    }

    /**
     * Running the quickstart again, as a new user does, reads no file twice: the files' positions
     * are committed with their rows (on main it left 80 rows, 40 distinct ids).
     */
    @Test
    void theQuickstartRunTwiceLoadsEachRowOnce() throws IOException {
        Path config = quickstart();

        assertThat(CliRun.syncOnce(dir, config, "orders").exitCode()).isZero();
        CliRun again = CliRun.syncOnce(dir, config, "orders");

        assertThat(again.exitCode()).as(again.all()).isZero();
        assertThat(again.err())
                .contains(
                        "Pipeline sync complete: 0 streams, 0 records read, 0 written, 0"
                                + " deadlettered");
        CliRun query = ordersSummary(config);
        assertThat(query.out())
                .isEqualTo(
                        """
                orders | ids | ids_sum
                -------+-----+--------
                40     | 40  | 820    \n(1 row)
                """);
    }

    @Test
    void anUnreachableSourceFailsWithExitCode1NamingTheServerNotThePassword() throws IOException {
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  orders: {data_source: data_sources.app_db}
                data_sources:
                  app_db:
                    Postgres: {host: 127.0.0.1, port: 1, user: u, password: '${PW}', database: d}
                """);
        CliRun sync =
                CliRun.run(
                        dir,
                        Map.of(
                                "PW",
                                "hunter2",
                                "SKIPPR_STATE_DIR",
                                dir.resolve("state").toString()),
                        "sync",
                        "--pipeline",
                        "orders",
                        "--once");

        assertThat(sync.exitCode()).isEqualTo(1);
        assertThat(sync.err())
                .contains(
                        "error: PostgresSourceException: Could not connect to"
                                + " PostgreSQL at 127.0.0.1:1, database \"d\", user \"u\"")
                .doesNotContain("hunter2")
                .doesNotContain("\tat ");
    }

    @Test
    void queryingAPipelineThatNeverRanSaysSo() throws IOException {
        CliRun query = query(quickstart(), "SELECT 1");
        assertThat(query.exitCode()).isEqualTo(2);
        assertThat(query.err())
                .isEqualTo(
                        "error: the DuckDB database "
                                + dir.resolve("quickstart.duckdb")
                                + " does not exist yet; run skipprd sync --pipeline orders --once"
                                + " first\n");
    }

    @Test
    void withoutADataSinkTheWalStoreIsQueried() throws IOException {
        Path config = quickstart();
        Files.writeString(
                config,
                Files.readString(config).replace("    data_sink: data_sinks.warehouse\n", ""));
        Map<String, String> env = Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        CliRun empty = CliRun.run(dir, env, "query", "--pipeline", "orders", "SELECT 1");
        assertThat(empty.err())
                .isEqualTo(
                        "error: the WAL store of pipeline 'orders' is empty;"
                                + " run skipprd sync --pipeline orders --once first\n");

        assertThat(CliRun.run(dir, env, "sync", "--pipeline", "orders", "--once").exitCode())
                .isZero();
        CliRun query =
                CliRun.run(
                        dir,
                        env,
                        "query",
                        "--pipeline",
                        "orders",
                        "SELECT count(*) AS n FROM orders");
        assertThat(query.out()).isEqualTo("n \n--\n40\n(1 row)\n");
    }

    @Test
    void badSqlIsAUsageErrorWithDuckDbsMessage() throws IOException {
        Path config = quickstart();
        Map<String, String> env = Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        CliRun.syncOnce(dir, config, "orders");
        CliRun query =
                CliRun.run(
                        dir,
                        env,
                        "query",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders",
                        "SELECT nope FROM orders");
        assertThat(query.exitCode()).isEqualTo(2);
        assertThat(query.err())
                .startsWith("error: query: ")
                .contains("nope")
                .doesNotContain("\tat ");
    }
}
