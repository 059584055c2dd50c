package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.job.TestEnv;
import io.skippr.sinks.athenaiceberg.AthenaIcebergCatalog;
import io.skippr.sinks.glue.FakeGlueServer;
import io.skippr.sinks.s3.S3Connection;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.TableIdentifier;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The Athena Iceberg sink: Iceberg tables in a bucket of the S3Proxy that {@code scripts/test}
 * starts, cataloged through Iceberg's own GlueCatalog in a fake Glue server that this fixture runs
 * in the test JVM on 127.0.0.1 (the kit's {@code skipprd} processes reach it through {@code
 * glue_endpoint}). Rows are read back as Athena's engine would find them: the Glue table's current
 * Iceberg metadata, through Iceberg's generic reader.
 */
final class AthenaIcebergFixture implements SinkFixture {
    private static final String DATABASE = "kit";

    private final String bucket = "skippr-ice-" + UUID.randomUUID().toString().substring(0, 8);
    private final FakeGlueServer glue = FakeGlueServer.start();

    AthenaIcebergFixture() {
        try (S3Client s3 =
                S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                        .withKeys(
                                env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"))
                        .open()) {
            s3.createBucket(b -> b.bucket(bucket));
        }
    }

    private static String env(String name) {
        return TestEnv.require(name, "the S3Proxy server that scripts/test starts");
    }

    @Override
    public String kind() {
        return "AthenaIceberg";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    private Map<String, Object> settings() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("s3_bucket", bucket);
        settings.put("s3_prefix", "lake/iceberg");
        settings.put("athena_workgroup_name", "primary");
        settings.put("athena_results_s3_bucket", "athena-results");
        settings.put("glue_database_name", DATABASE);
        settings.put("glue_endpoint", glue.endpoint());
        settings.put("s3_endpoint", env("SKIPPR_TEST_S3_ENDPOINT"));
        settings.put("region", env("SKIPPR_TEST_S3_REGION"));
        return settings;
    }

    @Override
    public String sinkYaml(Path dir) {
        StringBuilder yaml = new StringBuilder("    AthenaIceberg:\n");
        settings()
                .forEach(
                        (k, v) ->
                                yaml.append("      ")
                                        .append(k)
                                        .append(": ")
                                        .append(v)
                                        .append('\n'));
        return yaml.toString();
    }

    @Override
    public Map<String, String> env() {
        return Map.of(
                "AWS_ACCESS_KEY_ID", env("SKIPPR_TEST_S3_ACCESS_KEY"),
                "AWS_SECRET_ACCESS_KEY", env("SKIPPR_TEST_S3_SECRET_KEY"),
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        return IcebergRows.read(
                AthenaIcebergCatalog.of("test", new ResolvedSettings(null, settings())).open(),
                TableIdentifier.of(DATABASE, table(stream)));
    }

    @Override
    public boolean mergesByDefault() {
        return false; // docs/connectors: append unless write_mode says merge
    }

    /** Merge upserts with equality deletes on the key (MergeRows); replace is refused. */
    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge");
    }

    /** A bounded run commits once, one Iceberg snapshot, at the end of its input (IcebergSink). */
    @Override
    public boolean commitsARunAtOnce() {
        return true;
    }

    /** Iceberg timestamps are 64-bit microseconds (docs/connectors/athenaiceberg.md). */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public void close() {
        glue.close();
    }
}
