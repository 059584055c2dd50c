package io.skippr.sinks.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class GcsEndpointTest {
    @Test
    void noEndpointMeansGoogle() {
        assertThat(GcsEndpoint.parse(null)).isNull();
        assertThat(GcsEndpoint.parse(" ")).isNull();
    }

    @Test
    void httpsAnywhereGetsCredentials() {
        assertThat(GcsEndpoint.parse("https://storage.example.com:8443/"))
                .isEqualTo(new GcsEndpoint("https://storage.example.com:8443", false));
    }

    @Test
    void plainHttpOnThisMachineGetsNone() {
        assertThat(GcsEndpoint.parse("http://127.0.0.1:4443"))
                .isEqualTo(new GcsEndpoint("http://127.0.0.1:4443", true));
        assertThat(GcsEndpoint.parse("http://localhost:4443").local()).isTrue();
        assertThat(GcsEndpoint.parse("http://[::1]:4443").local()).isTrue();
    }

    @Test
    void plainHttpElsewhereIsRefused() {
        assertThatThrownBy(() -> GcsEndpoint.parse("http://gcs.internal:80"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("plain http is allowed only on this machine")
                .hasMessageContaining("use https for gcs.internal");
    }

    @Test
    void aPathQueryOrOtherSchemeIsRefused() {
        assertThatThrownBy(() -> GcsEndpoint.parse("https://h/storage/v1"))
                .hasMessageContaining("scheme, host and port only");
        assertThatThrownBy(() -> GcsEndpoint.parse("ftp://h"))
                .hasMessageContaining("must be an http(s) URL");
        assertThatThrownBy(() -> GcsEndpoint.parse("localhost:4443"))
                .hasMessageContaining("must be an http(s) URL");
    }
}
