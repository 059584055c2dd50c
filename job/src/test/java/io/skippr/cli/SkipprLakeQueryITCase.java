package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quickstart's files loaded into a SkipprLake (embedded catalog, local warehouse) by {@code
 * skipprd sync --once}, and its table queried by {@code skipprd query}, in-process; the malformed
 * line's deadletter read back from a SkipprLake deadletter sink by {@code skipprd deadletters}.
 */
class SkipprLakeQueryITCase {
    @TempDir Path dir;

    private Path config() throws IOException {
        Path source = Path.of("../examples/quickstart/data");
        try (Stream<Path> files = Files.list(source)) {
            Files.createDirectories(dir.resolve("data"));
            for (Path p : files.filter(f -> f.toString().endsWith(".csv")).toList()) {
                Files.copy(p, dir.resolve("data").resolve(p.getFileName().toString()));
            }
        }
        String lake = "      SkipprLake:\n        warehouse: '" + dir.resolve("lake") + "'\n";
        return Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  orders:\n    data_source: data_sources.shop_files\n"
                        + "    data_sink: data_sinks.lake\n"
                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                        + "data_sources:\n  shop_files:\n    LocalFile:\n"
                        + "      path: data/orders-*.csv\n      format: csv\n      stream: orders\n"
                        + "data_sinks:\n  lake:\n    schema_sink: schema_sinks.lake\n"
                        + lake.replace("      S", "    S").replace("        w", "      w")
                        + "schema_sinks:\n  lake:\n"
                        + lake.replace("      S", "    S").replace("        w", "      w")
                        + "deadletter_sinks:\n  rejects:\n    SkipprLake:\n      warehouse: '"
                        + dir.resolve("rejected")
                        + "'\n");
    }

    @Test
    void aPipelineLoadingSkipprLakeIsQueriedOverItsTables() throws IOException {
        Path config = config();
        Map<String, String> env = Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString());

        CliRun before =
                CliRun.run(
                        dir,
                        env,
                        "query",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders",
                        "SELECT 1");
        assertThat(before.exitCode()).isEqualTo(2);
        assertThat(before.err())
                .isEqualTo(
                        "error: namespace skippr of the SkipprLake warehouse "
                                + dir.resolve("lake")
                                + " (catalog jdbc:sqlite:"
                                + dir.resolve("lake").resolve("_skippr_catalog.sqlite")
                                + ") holds no tables yet; run skipprd sync --pipeline orders"
                                + " --once first\n");

        CliRun sync = CliRun.syncOnce(dir, config, "orders");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        assertThat(sync.err())
                .contains(
                        "Pipeline sync complete: 1 streams, 41 records read, 40 written, 1"
                                + " deadlettered");

        CliRun query =
                CliRun.run(
                        dir,
                        env,
                        "query",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders",
                        "SELECT count(*) AS orders, count(DISTINCT _skippr_id) AS ids,"
                                + " sum(id) AS ids_sum FROM orders");
        assertThat(query.exitCode()).as(query.all()).isZero();
        assertThat(query.out())
                .isEqualTo(
                        """
                        orders | ids | ids_sum
                        -------+-----+--------
                        40     | 40  | 820    \n(1 row)
                        """);

        // the deadletter, read back from the SkipprLake deadletter sink's Iceberg table
        CliRun list =
                CliRun.run(
                        dir,
                        env,
                        "deadletters",
                        "list",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders");
        assertThat(list.exitCode()).as(list.all()).isZero();
        assertThat(list.out())
                .startsWith(
                        "Pipeline orders: 1 deadletters in table skippr.skippr_deadletters of the"
                                + " SkipprLake warehouse "
                                + dir.resolve("rejected"))
                .containsPattern(
                        "\n     1  transform  UndecodableRecord: expected 5 fields as in the header"
                                + " but found 6\n        orders at .*orders-2026-11-02\\.csv#\\d+\n$");
        // a line the source could not decode is no row to replay: it is read again from the file
        CliRun replay =
                CliRun.run(
                        dir,
                        env,
                        "deadletters",
                        "replay",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders");
        assertThat(replay.exitCode()).as(replay.all()).isZero();
        assertThat(replay.out()).isEqualTo("No deadletters of pipeline orders to replay\n");
        assertThat(replay.err())
                .isEqualTo(
                        "1 deadletters hold the text a source could not decode, not a row: correct"
                                + " the source and sync it again to read them\n");

        CliRun bad =
                CliRun.run(
                        dir,
                        env,
                        "query",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "orders",
                        "SELECT nope FROM orders");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err())
                .startsWith("error: query: ")
                .contains("nope")
                .endsWith("(tables: orders)\n");
    }
}
