package io.skippr.sinks.s3;

import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The S3Proxy server that {@code scripts/test} starts ({@code SKIPPR_TEST_S3_*}), with one bucket
 * per JVM; each store gets a prefix of its own. Without the server the tests fail, never skip.
 */
public final class TestS3 {
    static final String BUCKET = "skippr-it-" + UUID.randomUUID().toString().substring(0, 8);
    private static boolean bucketCreated;

    private TestS3() {}

    public static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: this test needs the S3Proxy server that scripts/test"
                            + " starts (scripts/lib/s3proxy.sh); run it through scripts/test");
        }
        return value;
    }

    public static S3Connection connection() {
        return S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    /** The test bucket, created on first use. */
    public static synchronized String bucket() {
        if (!bucketCreated) {
            try (S3Client s3 = connection().open()) {
                s3.createBucket(b -> b.bucket(BUCKET));
            } catch (S3Exception e) {
                if (!"BucketAlreadyOwnedByYou".equals(e.awsErrorDetails().errorCode())) {
                    throw e;
                }
            }
            bucketCreated = true;
        }
        return BUCKET;
    }

    /** A fresh prefix with a space and a non-ASCII letter in it, as users' prefixes may have. */
    public static String freshPrefix() {
        return "runs/it ä-" + UUID.randomUUID();
    }
}
