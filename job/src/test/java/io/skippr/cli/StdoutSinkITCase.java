package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.job.ShopFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
        Process process = SkipprdProcess.syncOnce(dir, "orders");

        assertThat(process.exitValue()).as(Files.readString(dir.resolve("sync.err"))).isZero();
        List<String> lines = Files.readAllLines(dir.resolve("sync.out"));
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
        assertThat(Files.readString(dir.resolve("sync.err")))
                .contains("Pipeline sync complete: 1 streams, 300 records read, 300 written");
    }
}
