package io.skippr.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --config FILE, else $SKIPPR_CONFIG, else ./skippr.yml, then parent folders. */
class ConfigDiscoveryTest {
    @TempDir Path dir;

    @Test
    void explicitWinsOverEnvironmentWhichWinsOverFolders() throws IOException {
        Path nested = Files.createDirectories(dir.resolve("a/b"));
        Files.writeString(dir.resolve("skippr.yml"), "pipelines: {}\n");
        Map<String, String> env = Map.of("SKIPPR_CONFIG", "from-env.yml");

        assertThat(ConfigDiscovery.find(Path.of("mine.yml"), env, nested))
                .contains(nested.resolve("mine.yml"));
        assertThat(ConfigDiscovery.find(null, env, nested))
                .contains(nested.resolve("from-env.yml"));
        assertThat(ConfigDiscovery.find(null, Map.of(), nested))
                .contains(dir.resolve("skippr.yml"));
    }

    @Test
    void theNearestFolderWins() throws IOException {
        Path nested = Files.createDirectories(dir.resolve("a"));
        Files.writeString(dir.resolve("skippr.yml"), "");
        Files.writeString(nested.resolve("skippr.yml"), "");
        assertThat(ConfigDiscovery.find(null, Map.of(), nested))
                .contains(nested.resolve("skippr.yml"));
    }

    @Test
    void noFileAnywhereIsAClearError() {
        Path empty = dir.resolve("nothing-here");
        assertThatThrownBy(() -> ConfigDiscovery.require(null, Map.of(), empty))
                .isInstanceOf(ConfigException.class)
                .hasMessage(
                        "skippr.yml: no skippr.yml in "
                                + empty.toAbsolutePath()
                                + " or its parent folders; pass --config FILE or set SKIPPR_CONFIG");
        assertThat(ConfigDiscovery.findOrDefault(null, Map.of(), empty))
                .isEqualTo(empty.resolve("skippr.yml"));
    }
}
