package io.skippr.conformance;

import io.skippr.config.Secret;
import io.skippr.config.catalog.Guarantee;
import io.skippr.job.TestEnv;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The SkipprLake sink, read back as an Iceberg reader would: the table's current snapshot through
 * Iceberg's generic reader. Either with the embedded catalog in a local warehouse, or with the
 * catalog on the test PostgreSQL and the warehouse in a bucket of the test S3Proxy.
 */
final class SkipprLakeFixture implements SinkFixture {
    private final boolean shared;
    private final String namespace;
    private final String bucket;
    private Path warehouse;

    private SkipprLakeFixture(boolean shared) {
        this.shared = shared;
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        this.namespace = shared ? "kit_" + suffix : "skippr";
        this.bucket = shared ? "skippr-lake-" + suffix : null;
    }

    /** The embedded catalog, in a local warehouse. */
    static SkipprLakeFixture embedded() {
        return new SkipprLakeFixture(false);
    }

    /** The catalog on the test PostgreSQL, the warehouse on the test S3Proxy. */
    static SkipprLakeFixture postgresCatalogOnS3() {
        SkipprLakeFixture fixture = new SkipprLakeFixture(true);
        try (S3Client s3 = s3().open()) {
            s3.createBucket(b -> b.bucket(fixture.bucket));
        }
        return fixture;
    }

    private static String env(String name) {
        return TestEnv.require(name, "the servers that scripts/test starts");
    }

    private static S3Connection s3() {
        return S3Connection.of(env("SKIPPR_TEST_S3_REGION"), env("SKIPPR_TEST_S3_ENDPOINT"), true)
                .withKeys(env("SKIPPR_TEST_S3_ACCESS_KEY"), env("SKIPPR_TEST_S3_SECRET_KEY"));
    }

    private String catalogUri() {
        return "jdbc:postgresql://"
                + env("SKIPPR_TEST_PG_HOST")
                + ":"
                + env("SKIPPR_TEST_PG_PORT")
                + "/"
                + env("SKIPPR_TEST_PG_DATABASE");
    }

    @Override
    public String kind() {
        return "SkipprLake";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        if (!shared) {
            warehouse = dir.resolve("lake");
            return "    SkipprLake:\n      warehouse: '" + warehouse + "'\n";
        }
        return "    SkipprLake:\n      warehouse: s3://"
                + bucket
                + "/lake\n      catalog_uri: "
                + catalogUri()
                + "\n      catalog_user: "
                + env("SKIPPR_TEST_PG_USER")
                + "\n      catalog_password: ${LAKE_CATALOG_PASSWORD}\n      namespace: "
                + namespace
                + "\n      s3_endpoint: "
                + env("SKIPPR_TEST_S3_ENDPOINT")
                + "\n      region: "
                + env("SKIPPR_TEST_S3_REGION")
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        if (!shared) {
            return Map.of();
        }
        return Map.of(
                "LAKE_CATALOG_PASSWORD", env("SKIPPR_TEST_PG_PASSWORD"),
                "AWS_ACCESS_KEY_ID", env("SKIPPR_TEST_S3_ACCESS_KEY"),
                "AWS_SECRET_ACCESS_KEY", env("SKIPPR_TEST_S3_SECRET_KEY"),
                "AWS_EC2_METADATA_DISABLED", "true");
    }

    private Catalog catalog(Path dir) {
        SkipprLakeCatalog lake =
                shared
                        ? SkipprLakeCatalog.of(
                                "test.",
                                "s3://" + bucket + "/lake",
                                catalogUri(),
                                env("SKIPPR_TEST_PG_USER"),
                                new Secret(env("SKIPPR_TEST_PG_PASSWORD")),
                                env("SKIPPR_TEST_S3_ENDPOINT"),
                                env("SKIPPR_TEST_S3_REGION"))
                        : SkipprLakeCatalog.of(
                                "test.",
                                dir.resolve("lake").toString(),
                                null,
                                null,
                                null,
                                null,
                                null);
        return lake.open();
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        return IcebergRows.read(catalog(dir), TableIdentifier.of(namespace, table(stream)));
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

    /** Iceberg timestamps are 64-bit microseconds (docs/connectors/skipprlake.md). */
    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public void close() throws Exception {
        if (!shared || warehouse == null && bucket == null) {
            return;
        }
        Catalog catalog = catalog(null);
        try {
            Namespace ns = Namespace.of(namespace);
            if (((SupportsNamespaces) catalog).namespaceExists(ns)) {
                for (TableIdentifier id : catalog.listTables(ns)) {
                    catalog.dropTable(id, false);
                }
                ((SupportsNamespaces) catalog).dropNamespace(ns);
            }
        } finally {
            ((Closeable) catalog).close();
        }
    }
}
