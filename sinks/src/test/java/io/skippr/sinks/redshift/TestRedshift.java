package io.skippr.sinks.redshift;

import io.skippr.config.Secret;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.staged.S3Stage;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A Redshift twin ({@link RedshiftTwin}) in front of the test PostgreSQL, and a staging bucket of
 * its own on the test S3Proxy; both from {@code scripts/test}'s servers ({@code SKIPPR_TEST_PG_*},
 * {@code SKIPPR_TEST_S3_*}). Without them the tests fail, never skip.
 */
public final class TestRedshift implements AutoCloseable {
    public final RedshiftTwin twin;
    public final String bucket = "skippr-redshift-" + UUID.randomUUID().toString().substring(0, 8);

    public TestRedshift() throws Exception {
        try (S3Client s3 = s3().open()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
        twin =
                RedshiftTwin.start(
                        env("SKIPPR_TEST_PG_HOST"),
                        Integer.parseInt(env("SKIPPR_TEST_PG_PORT")),
                        s3());
    }

    public static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: this test needs the PostgreSQL and S3Proxy servers"
                            + " that scripts/test starts; run it through scripts/test");
        }
        return value;
    }

    /** The S3Proxy, with its keys. */
    public static S3Connection s3() {
        return S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    /** The sink's view of the twin: the test role, no TLS, staging in this bucket. */
    public RedshiftDatabase database() {
        return new RedshiftDatabase(
                "127.0.0.1",
                twin.port(),
                env("SKIPPR_TEST_PG_DATABASE"),
                env("SKIPPR_TEST_PG_USER"),
                new Secret(env("SKIPPR_TEST_PG_PASSWORD")),
                false,
                new S3Stage(s3(), bucket),
                new RedshiftCopy("arn:aws:iam::123456789012:role/skippr-twin", null));
    }

    @Override
    public void close() throws Exception {
        twin.close();
    }
}
