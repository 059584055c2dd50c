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
 * skipprd sync --once}, and its table queried by {@code skipprd query}, in-process.
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
                        + "data_sources:\n  shop_files:\n    LocalFile:\n"
                        + "      path: data/orders-*.csv\n      format: csv\n      stream: orders\n"
                        + "data_sinks:\n  lake:\n    schema_sink: schema_sinks.lake\n"
                        + lake.replace("      S", "    S").replace("        w", "      w")
                        + "schema_sinks:\n  lake:\n"
                        + lake.replace("      S", "    S").replace("        w", "      w"));
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
