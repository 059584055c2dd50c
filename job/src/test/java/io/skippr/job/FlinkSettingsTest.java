package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the embedded runner's web UI listens, from the environment and the Flink configuration, and
 * how its {@code --once} runs recover.
 */
class FlinkSettingsTest {
    @TempDir Path dir;

    @Test
    void theUiListensOnLoopbackOnAFreePortByDefault() {
        assertThat(ui(Map.of())).containsExactly("127.0.0.1", "127.0.0.1", "0");
    }

    @Test
    void theEnvironmentNamesTheUisAddressAndPort() {
        assertThat(ui(Map.of("SKIPPR_UI_ADDRESS", "0.0.0.0", "SKIPPR_UI_PORT", "8099")))
                .containsExactly("0.0.0.0", "127.0.0.1", "8099");
    }

    @Test
    void aUsersFlinkConfigurationNamesThemWhenTheEnvironmentDoesNot() throws Exception {
        Files.writeString(
                dir.resolve("config.yaml"), "rest.bind-address: 127.0.0.2\nrest.port: 18081\n");
        assertThat(ui(Map.of("SKIPPR_FLINK_CONF_DIR", dir.toString())))
                .containsExactly("127.0.0.2", "127.0.0.2", "18081");
        assertThat(ui(Map.of("SKIPPR_FLINK_CONF_DIR", dir.toString(), "SKIPPR_UI_PORT", "18082")))
                .containsExactly("127.0.0.2", "127.0.0.2", "18082");
    }

    @Test
    void aOnceRunRecoversByRegionWhateverTheUsersConfigurationSays() throws Exception {
        Files.writeString(
                dir.resolve("config.yaml"),
                "jobmanager.execution.failover-strategy: full\nrestart-strategy.type: none\n");
        Configuration conf =
                FlinkSettings.forPipeline(
                        dir.resolve("state"), Map.of("SKIPPR_FLINK_CONF_DIR", dir.toString()));
        assertThat(conf.getString("jobmanager.execution.failover-strategy", null))
                .as("the user's configuration is read")
                .isEqualTo("full");
        FlinkSettings.boundedRecovery(conf);
        assertThat(conf.getString("jobmanager.execution.failover-strategy", null))
                .isEqualTo("region");
        assertThat(conf.getString("restart-strategy.type", null)).isEqualTo("fixed-delay");
        assertThat(conf.getString("restart-strategy.fixed-delay.attempts", null)).isEqualTo("2");
    }

    private Object[] ui(Map<String, String> env) {
        Configuration conf = FlinkSettings.forPipeline(dir.resolve("state"), env);
        FlinkSettings.webUi(conf, env);
        return new Object[] {
            conf.getString("rest.bind-address", null),
            conf.getString("rest.address", null),
            conf.getString("rest.port", null)
        };
    }
}
