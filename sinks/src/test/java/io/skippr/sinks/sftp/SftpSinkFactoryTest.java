package io.skippr.sinks.sftp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SftpSinkFactoryTest {
    private static SinkContext context(Map<String, Object> values, String writeMode) {
        return new SinkContext(
                "orders", "drop", new ResolvedSettings(null, values), true, null, writeMode);
    }

    private static Map<String, Object> server() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("host", "sftp.example.com");
        values.put("user", "etl");
        values.put("path", "/upload");
        return values;
    }

    @Test
    void onlyAppends() {
        Map<String, Object> values = server();
        values.put("private_key_file", "/keys/id_ed25519");
        assertThatThrownBy(() -> new SftpSinkFactory().create(context(values, "merge")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipelines.orders.write_mode: SFTP sinks only append");
    }

    @Test
    void neitherPasswordNorKeyNamesWhatIsMissing() {
        assertThatThrownBy(() -> new SftpSinkFactory().create(context(server(), "append")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("data_sinks.drop.SFTP")
                .hasMessageContaining("needs a password or a private_key_file");
    }
}
