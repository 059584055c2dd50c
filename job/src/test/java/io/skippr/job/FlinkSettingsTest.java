package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the embedded runner's web UI listens, from the environment and the Flink configuration. */
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
