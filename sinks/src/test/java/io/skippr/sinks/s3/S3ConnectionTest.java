package io.skippr.sinks.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class S3ConnectionTest {
    @Test
    void neitherToStringNorDescribeShowTheSecret() {
        S3Connection c =
                S3Connection.of("eu-west-1", "http://127.0.0.1:9000", true)
                        .withKeys("AKIDEXAMPLE", "s3cr3t-value");
        assertThat(c.toString()).doesNotContain("s3cr3t-value").contains("static keys");
        assertThat(new S3FileStore(c, "b", "p").describe())
                .isEqualTo("s3://b/p/ at http://127.0.0.1:9000")
                .doesNotContain("s3cr3t-value");
        assertThat(new S3FileStore(S3Connection.of(null, null, false), "b", "").describe())
                .isEqualTo("s3://b/");
    }

    @Test
    void anEndpointThatIsNoUrlIsRefusedByName() {
        assertThatThrownBy(() -> S3Connection.of(null, "minio:9000", true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'minio:9000' is not a URL");
    }

    @Test
    void aBucketIsRequired() {
        assertThatThrownBy(() -> new S3FileStore(S3Connection.of(null, null, false), " ", "p"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a bucket");
    }

    @Test
    void aMultipartTokenRoundTripsAndAForeignOneIsRefused() throws IOException {
        MultipartToken token =
                new MultipartToken("up.id~1", "ab12", 77, List.of("\"e1\"", "\"e2\""));
        assertThat(token.encode()).isEqualTo("s3-multipart-2\nup.id~1\nab12\n77\n\"e1\"\n\"e2\"");
        assertThat(MultipartToken.decode(token.encode(), "s3://b/k")).isEqualTo(token);
        // a checkpoint taken by an earlier Skippr holds version 1 tokens: no checksum, no size
        assertThat(MultipartToken.decode("s3-multipart-1\nup\n\"e1\"", "s3://b/k"))
                .isEqualTo(new MultipartToken("up", null, -1, List.of("\"e1\"")));
        assertThatThrownBy(() -> MultipartToken.decode("/tmp/x", "s3://b/k"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("s3://b/k")
                .hasMessageContaining("is not an S3 multipart token");
    }
}
