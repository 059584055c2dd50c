package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.ShopFiles;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Stdout sink, read from a real skipprd process's standard output. */
class StdoutSinkITCase {
    @TempDir Path dir;

    @Test
    void everyRowIsOneJsonLineOnStandardOutputAndNothingElseIs() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 301, 0);
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  orders: {data_source: data_sources.shop, data_sink: data_sinks.screen}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, stream: orders}
                data_sinks:
                  screen:
                    Stdout: {}
                """);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
                .forEach(command::add);
        command.addAll(
                List.of(
                        "-cp",
                        System.getProperty("java.class.path"),
                        Skipprd.class.getName(),
                        "sync",
                        "--pipeline",
                        "orders",
                        "--once"));
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectOutput(dir.resolve("stdout").toFile())
                        .redirectError(dir.resolve("stderr").toFile());
        builder.environment().put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        Process process = builder.start();

        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(Files.readString(dir.resolve("stderr"))).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("stdout"));
        assertThat(lines).hasSize(300);
        ObjectMapper json = new ObjectMapper();
        Set<String> ids = new HashSet<>();
        long sum = 0;
        for (String line : lines) {
            JsonNode row = json.readTree(line);
            assertThat(row.get("_stream").asText()).isEqualTo("orders");
            ids.add(row.get("_skippr_id").asText());
            sum += row.get("id").asLong();
        }
        assertThat(ids).hasSize(300);
        assertThat(sum).isEqualTo(ShopFiles.idSum(1, 301));
        assertThat(Files.readString(dir.resolve("stderr")))
                .contains("Pipeline sync complete: 1 streams, 300 records read, 300 written");
    }
}
