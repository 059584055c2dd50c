package io.skippr.sinks.athenaiceberg;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.glue.GlueConnection;
import io.skippr.sinks.iceberg.IcebergCatalogFactory;
import io.skippr.sinks.s3.S3Connection;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.aws.AwsClientProperties;
import org.apache.iceberg.aws.AwsProperties;
import org.apache.iceberg.aws.HttpClientProperties;
import org.apache.iceberg.aws.glue.GlueCatalog;
import org.apache.iceberg.aws.s3.S3FileIOProperties;
import org.apache.iceberg.catalog.Catalog;

/**
 * Athena Iceberg's catalog: AWS Glue's Iceberg catalog ({@link GlueCatalog}), with the tables' data
 * and metadata under {@code s3://<s3_bucket>/<s3_prefix>/}. Clients are Iceberg's own AWS clients
 * on the JDK's HTTP client, with credentials from the AWS SDK's default chain; {@code
 * glue_endpoint} and {@code s3_endpoint} point them elsewhere (an S3-compatible store is addressed
 * path-style).
 */
public final class AthenaIcebergCatalog implements IcebergCatalogFactory {
    private static final long serialVersionUID = 1L;

    private final String warehouse;
    private final String region;
    private final String glueEndpoint;
    private final String s3Endpoint;

    private AthenaIcebergCatalog(
            String warehouse, String region, String glueEndpoint, String s3Endpoint) {
        this.warehouse = warehouse;
        this.region = region;
        this.glueEndpoint = glueEndpoint;
        this.s3Endpoint = s3Endpoint;
    }

    /** The catalog of an AthenaIceberg entry; {@code at} is its YAML path, for errors. */
    public static AthenaIcebergCatalog of(String at, ResolvedSettings settings) {
        String prefix = FileStore.prefix(settings.string("s3_prefix").orElse(""));
        String region = settings.string("region").orElse(null);
        String glue = settings.string("glue_endpoint").orElse(null);
        String s3 = settings.string("s3_endpoint").orElse(null);
        try {
            GlueConnection.of(region, glue);
        } catch (IllegalArgumentException e) {
            throw ConfigException.of("skippr.yml", at + ".glue_endpoint: " + e.getMessage());
        }
        try {
            S3Connection.of(region, s3, true);
        } catch (IllegalArgumentException e) {
            throw ConfigException.of("skippr.yml", at + ".s3_endpoint: " + e.getMessage());
        }
        String bucket = settings.requireString("s3_bucket");
        return new AthenaIcebergCatalog(
                "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix), region, glue, s3);
    }

    @Override
    public Catalog open() {
        Map<String, String> properties = new HashMap<>();
        properties.put(CatalogProperties.WAREHOUSE_LOCATION, warehouse);
        properties.put(
                HttpClientProperties.CLIENT_TYPE, HttpClientProperties.CLIENT_TYPE_URLCONNECTION);
        if (region != null) {
            properties.put(AwsClientProperties.CLIENT_REGION, region);
        } else if (glueEndpoint != null || s3Endpoint != null) {
            properties.put(AwsClientProperties.CLIENT_REGION, "us-east-1");
        }
        if (glueEndpoint != null) {
            properties.put(AwsProperties.GLUE_CATALOG_ENDPOINT, glueEndpoint);
        }
        if (s3Endpoint != null) {
            properties.put(S3FileIOProperties.ENDPOINT, s3Endpoint);
            properties.put(S3FileIOProperties.PATH_STYLE_ACCESS, "true");
        }
        GlueCatalog catalog = new GlueCatalog();
        catalog.initialize("glue", properties);
        return catalog;
    }

    @Override
    public String describe() {
        return "the Glue Iceberg catalog"
                + (glueEndpoint == null ? "" : " at " + glueEndpoint)
                + " with its warehouse "
                + warehouse;
    }

    @Override
    public String toString() {
        return describe();
    }
}
