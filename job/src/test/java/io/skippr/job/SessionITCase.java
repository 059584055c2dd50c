package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.Config;
import io.skippr.job.query.WalQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java API's {@code new Session(config.getPipeline("orders")).sync(true)}. */
class SessionITCase {
    @TempDir Path dir;

    @Test
    void syncOnceRunsThePipelineAndReturnsItsCounters() throws Exception {
        ShopFiles.write(dir.resolve("in"), "a.csv", 1, 251, 1);
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  orders: {data_source: data_sources.shop}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, stream: orders}
                """);
        Map<String, String> env = Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString());

        Session session =
                new Session(Config.load(dir.resolve("skippr.yml")).getPipeline("orders"), env);
        Map<String, Map<String, Long>> counters = session.sync(true);

        assertThat(counters).containsOnlyKeys("orders");
        assertThat(counters.get("orders"))
                .containsEntry("read", 251L)
                .containsEntry("written", 250L)
                .containsEntry("deadlettered", 1L);
        assertThat(session.stateDir()).isEqualTo(dir.resolve("state/orders"));
        assertThat(WalQuery.run(session.stateDir(), "SELECT count(*), sum(id) FROM orders").rows())
                .containsExactly(java.util.List.of("250", String.valueOf(ShopFiles.idSum(1, 251))));
    }
}
