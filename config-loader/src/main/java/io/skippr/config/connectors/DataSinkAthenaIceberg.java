// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Amazon Athena Iceberg data sink. Writes Iceberg tables on S3, cataloged in Glue, for Athena. */
public final class DataSinkAthenaIceberg extends Connector<DataSinkAthenaIceberg> {
    public DataSinkAthenaIceberg() {
        super(Role.DATA_SINK, "AthenaIceberg");
    }

    /** S3 bucket the files are written to. Required. */
    public DataSinkAthenaIceberg s3Bucket(String value) {
        return set("s3_bucket", value);
    }

    /** S3 bucket the files are written to. Required. From an environment variable. */
    public DataSinkAthenaIceberg s3Bucket(EnvRef value) {
        return set("s3_bucket", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. */
    public DataSinkAthenaIceberg s3Prefix(String value) {
        return set("s3_prefix", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. From an environment variable. */
    public DataSinkAthenaIceberg s3Prefix(EnvRef value) {
        return set("s3_prefix", value);
    }

    /** Athena workgroup that runs queries. Required. */
    public DataSinkAthenaIceberg athenaWorkgroupName(String value) {
        return set("athena_workgroup_name", value);
    }

    /** Athena workgroup that runs queries. Required. From an environment variable. */
    public DataSinkAthenaIceberg athenaWorkgroupName(EnvRef value) {
        return set("athena_workgroup_name", value);
    }

    /** S3 bucket where Athena writes query results. Required. */
    public DataSinkAthenaIceberg athenaResultsS3Bucket(String value) {
        return set("athena_results_s3_bucket", value);
    }

    /** S3 bucket where Athena writes query results. Required. From an environment variable. */
    public DataSinkAthenaIceberg athenaResultsS3Bucket(EnvRef value) {
        return set("athena_results_s3_bucket", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). */
    public DataSinkAthenaIceberg region(String value) {
        return set("region", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). From an environment variable. */
    public DataSinkAthenaIceberg region(EnvRef value) {
        return set("region", value);
    }

    /** S3 endpoint URL, for S3-compatible stores (default: AWS). */
    public DataSinkAthenaIceberg s3Endpoint(String value) {
        return set("s3_endpoint", value);
    }

    /** S3 endpoint URL, for S3-compatible stores (default: AWS). From an environment variable. */
    public DataSinkAthenaIceberg s3Endpoint(EnvRef value) {
        return set("s3_endpoint", value);
    }

    /** Glue database that holds the tables. Required. */
    public DataSinkAthenaIceberg glueDatabaseName(String value) {
        return set("glue_database_name", value);
    }

    /** Glue database that holds the tables. Required. From an environment variable. */
    public DataSinkAthenaIceberg glueDatabaseName(EnvRef value) {
        return set("glue_database_name", value);
    }

    /** Glue endpoint URL (default: AWS). */
    public DataSinkAthenaIceberg glueEndpoint(String value) {
        return set("glue_endpoint", value);
    }

    /** Glue endpoint URL (default: AWS). From an environment variable. */
    public DataSinkAthenaIceberg glueEndpoint(EnvRef value) {
        return set("glue_endpoint", value);
    }
}
