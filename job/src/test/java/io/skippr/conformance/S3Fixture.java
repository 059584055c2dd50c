package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.job.TestEnv;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.s3.S3FileStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 sink against the S3Proxy that {@code scripts/test} starts: a bucket per fixture,
 * path-style access, credentials from the environment (the AWS SDK's default chain, as users have
 * it).
 */
final class S3Fixture extends FileStoreFixture {
    private static String env(String name) {
        return TestEnv.require(name, "the S3Proxy server that scripts/test starts");
    }

    private final String bucket = "skippr-kit-" + UUID.randomUUID().toString().substring(0, 8);

    S3Fixture(String format) throws Exception {
        super(format);
        try (S3Client s3 = connection().open()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
    }

    private static S3Connection connection() {
        return S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    @Override
    public String kind() {
        return "S3";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    S3:\n      s3_bucket: "
                + bucket
                + "\n      s3_prefix: lake/raw\n      endpoint: "
                + env("SKIPPR_TEST_S3_ENDPOINT")
                + "\n      region: "
                + env("SKIPPR_TEST_S3_REGION")
                + "\n      path_style_access: true\n      format: "
                + format
                + "\n";
    }

    /** For skipprd processes: the default chain's variables, as a user's shell has them. */
    @Override
    public Map<String, String> env() {
        return Map.of(
                "AWS_ACCESS_KEY_ID", env("SKIPPR_TEST_S3_ACCESS_KEY"),
                "AWS_SECRET_ACCESS_KEY", env("SKIPPR_TEST_S3_SECRET_KEY"),
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    @Override
    List<String> list(Path dir, String prefix) {
        try (S3Client s3 = connection().open()) {
            return s3
                    .listObjectsV2Paginator(b -> b.bucket(bucket).prefix("lake/raw/" + prefix))
                    .contents()
                    .stream()
                    .map(o -> o.key().substring("lake/raw/".length()))
                    .sorted()
                    .toList();
        }
    }

    @Override
    FileStore store(Path dir) {
        return new S3FileStore(connection(), bucket, "lake/raw");
    }
}
