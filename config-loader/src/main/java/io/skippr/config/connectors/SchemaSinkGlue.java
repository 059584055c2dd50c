// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** AWS Glue Data Catalog schema sink. Keeps Glue tables, columns and partitions in step. */
public final class SchemaSinkGlue extends Connector<SchemaSinkGlue> {
    public SchemaSinkGlue() {
        super(Role.SCHEMA_SINK, "Glue");
    }

    /** S3 bucket the files are written to. Required. */
    public SchemaSinkGlue s3Bucket(String value) {
        return set("s3_bucket", value);
    }

    /** S3 bucket the files are written to. Required. From an environment variable. */
    public SchemaSinkGlue s3Bucket(EnvRef value) {
        return set("s3_bucket", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. */
    public SchemaSinkGlue s3Prefix(String value) {
        return set("s3_prefix", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. From an environment variable. */
    public SchemaSinkGlue s3Prefix(EnvRef value) {
        return set("s3_prefix", value);
    }

    /** Athena workgroup that runs queries. Required. */
    public SchemaSinkGlue athenaWorkgroupName(String value) {
        return set("athena_workgroup_name", value);
    }

    /** Athena workgroup that runs queries. Required. From an environment variable. */
    public SchemaSinkGlue athenaWorkgroupName(EnvRef value) {
        return set("athena_workgroup_name", value);
    }

    /** S3 bucket where Athena writes query results. Required. */
    public SchemaSinkGlue athenaResultsS3Bucket(String value) {
        return set("athena_results_s3_bucket", value);
    }

    /** S3 bucket where Athena writes query results. Required. From an environment variable. */
    public SchemaSinkGlue athenaResultsS3Bucket(EnvRef value) {
        return set("athena_results_s3_bucket", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). */
    public SchemaSinkGlue region(String value) {
        return set("region", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). From an environment variable. */
    public SchemaSinkGlue region(EnvRef value) {
        return set("region", value);
    }

    /** S3 endpoint URL, for S3-compatible stores (default: AWS). */
    public SchemaSinkGlue s3Endpoint(String value) {
        return set("s3_endpoint", value);
    }

    /** S3 endpoint URL, for S3-compatible stores (default: AWS). From an environment variable. */
    public SchemaSinkGlue s3Endpoint(EnvRef value) {
        return set("s3_endpoint", value);
    }

    /** Glue database that holds the tables. Required. */
    public SchemaSinkGlue glueDatabaseName(String value) {
        return set("glue_database_name", value);
    }

    /** Glue database that holds the tables. Required. From an environment variable. */
    public SchemaSinkGlue glueDatabaseName(EnvRef value) {
        return set("glue_database_name", value);
    }

    /** Glue endpoint URL (default: AWS). */
    public SchemaSinkGlue glueEndpoint(String value) {
        return set("glue_endpoint", value);
    }

    /** Glue endpoint URL (default: AWS). From an environment variable. */
    public SchemaSinkGlue glueEndpoint(EnvRef value) {
        return set("glue_endpoint", value);
    }
}
