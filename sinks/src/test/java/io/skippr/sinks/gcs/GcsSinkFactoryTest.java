package io.skippr.sinks.gcs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GcsSinkFactoryTest {
    @Test
    void onlyAppends() {
        SinkContext context =
                new SinkContext(
                        "orders",
                        "lake",
                        new ResolvedSettings(null, Map.of("bucket", "b")),
                        true,
                        null,
                        "merge");
        assertThatThrownBy(() -> new GcsSinkFactory().create(context))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipelines.orders.write_mode: GCS sinks only append");
    }
}
