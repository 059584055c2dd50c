// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** SkipprLake schema sink. Keeps SkipprLake table schemas in step. */
public final class SchemaSinkSkipprLake extends Connector<SchemaSinkSkipprLake> {
    public SchemaSinkSkipprLake() {
        super(Role.SCHEMA_SINK, "SkipprLake");
    }

    /** Warehouse location: a local folder or s3://bucket/path. Required. */
    public SchemaSinkSkipprLake warehouse(String value) {
        return set("warehouse", value);
    }

    /** Warehouse location: a local folder or s3://bucket/path. Required. From an environment variable. */
    public SchemaSinkSkipprLake warehouse(EnvRef value) {
        return set("warehouse", value);
    }

    /** JDBC URL of the Iceberg catalog (default: an embedded catalog in the warehouse). */
    public SchemaSinkSkipprLake catalogUri(String value) {
        return set("catalog_uri", value);
    }

    /** JDBC URL of the Iceberg catalog (default: an embedded catalog in the warehouse). From an environment variable. */
    public SchemaSinkSkipprLake catalogUri(EnvRef value) {
        return set("catalog_uri", value);
    }

    /** User of the catalog database. */
    public SchemaSinkSkipprLake catalogUser(String value) {
        return set("catalog_user", value);
    }

    /** User of the catalog database. From an environment variable. */
    public SchemaSinkSkipprLake catalogUser(EnvRef value) {
        return set("catalog_user", value);
    }

    /** Password of the catalog database. Secret: prefer an EnvRef. */
    public SchemaSinkSkipprLake catalogPassword(String value) {
        return set("catalog_password", value);
    }

    /** Password of the catalog database. Secret: prefer an EnvRef. From an environment variable. */
    public SchemaSinkSkipprLake catalogPassword(EnvRef value) {
        return set("catalog_password", value);
    }

    /** Iceberg namespace of the tables. Default: skippr. */
    public SchemaSinkSkipprLake namespace(String value) {
        return set("namespace", value);
    }

    /** Iceberg namespace of the tables. Default: skippr. From an environment variable. */
    public SchemaSinkSkipprLake namespace(EnvRef value) {
        return set("namespace", value);
    }

    /** Target size of data files, in MiB. Default: 128. */
    public SchemaSinkSkipprLake targetFileSizeMb(long value) {
        return set("target_file_size_mb", value);
    }

    /** Target size of data files, in MiB. Default: 128. From an environment variable. */
    public SchemaSinkSkipprLake targetFileSizeMb(EnvRef value) {
        return set("target_file_size_mb", value);
    }

    /** Compact small files after each commit. Default: false. */
    public SchemaSinkSkipprLake compact(boolean value) {
        return set("compact", value);
    }

    /** Compact small files after each commit. Default: false. From an environment variable. */
    public SchemaSinkSkipprLake compact(EnvRef value) {
        return set("compact", value);
    }

    /** S3 endpoint URL, for S3-compatible stores. */
    public SchemaSinkSkipprLake s3Endpoint(String value) {
        return set("s3_endpoint", value);
    }

    /** S3 endpoint URL, for S3-compatible stores. From an environment variable. */
    public SchemaSinkSkipprLake s3Endpoint(EnvRef value) {
        return set("s3_endpoint", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). */
    public SchemaSinkSkipprLake region(String value) {
        return set("region", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). From an environment variable. */
    public SchemaSinkSkipprLake region(EnvRef value) {
        return set("region", value);
    }
}
