package io.skippr.sinks.s3;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3SinkFactoryTest {
    private static SinkContext context(Map<String, Object> values, String writeMode) {
        return new SinkContext(
                "orders", "lake", new ResolvedSettings(null, values), true, null, writeMode);
    }

    @Test
    void onlyAppends() {
        assertThatThrownBy(
                        () ->
                                new S3SinkFactory()
                                        .create(context(Map.of("s3_bucket", "b"), "merge")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("pipelines.orders.write_mode: S3 sinks only append");
    }

    @Test
    void anEndpointThatIsNoUrlNamesTheField() {
        assertThatThrownBy(
                        () ->
                                new S3SinkFactory()
                                        .create(
                                                context(
                                                        Map.of(
                                                                "s3_bucket",
                                                                "b",
                                                                "endpoint",
                                                                "minio:9000"),
                                                        "append")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("data_sinks.lake.S3.endpoint: S3 endpoint 'minio:9000'");
    }
}
