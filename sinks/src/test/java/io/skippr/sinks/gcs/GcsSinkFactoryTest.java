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

    private static SinkContext context(Map<String, Object> settings) {
        return new SinkContext(
                "orders", "lake", new ResolvedSettings(null, settings), true, null, "append");
    }

    @Test
    void aPlainHttpEndpointElsewhereIsAConfigurationError() {
        assertThatThrownBy(
                        () ->
                                new GcsSinkFactory()
                                        .create(
                                                context(
                                                        Map.of(
                                                                "bucket",
                                                                "b",
                                                                "endpoint",
                                                                "http://gcs.internal"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("data_sinks.lake.GCS.endpoint: plain http is allowed only");
    }

    @Test
    void aCredentialsFileWithAPlainHttpEndpointIsAConfigurationError() {
        assertThatThrownBy(
                        () ->
                                new GcsSinkFactory()
                                        .create(
                                                context(
                                                        Map.of(
                                                                "bucket",
                                                                "b",
                                                                "endpoint",
                                                                "http://127.0.0.1:9",
                                                                "credentials_file",
                                                                "/keys/sa.json"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(
                        "data_sinks.lake.GCS.credentials_file: never sent to the plain-http"
                                + " endpoint http://127.0.0.1:9");
    }
}
