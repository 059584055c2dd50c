// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Amazon Athena data sink. Writes Parquet files to S3 for Athena, partitioned Hive-style. */
public final class DataSinkAthena extends Connector<DataSinkAthena> {
    public DataSinkAthena() {
        super(Role.DATA_SINK, "Athena");
    }

    /** S3 bucket the files are written to. Required. */
    public DataSinkAthena s3Bucket(String value) {
        return set("s3_bucket", value);
    }

    /** S3 bucket the files are written to. Required. From an environment variable. */
    public DataSinkAthena s3Bucket(EnvRef value) {
        return set("s3_bucket", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. */
    public DataSinkAthena s3Prefix(String value) {
        return set("s3_prefix", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. From an environment variable. */
    public DataSinkAthena s3Prefix(EnvRef value) {
        return set("s3_prefix", value);
    }

    /** Athena workgroup that runs queries. Required. */
    public DataSinkAthena athenaWorkgroupName(String value) {
        return set("athena_workgroup_name", value);
    }

    /** Athena workgroup that runs queries. Required. From an environment variable. */
    public DataSinkAthena athenaWorkgroupName(EnvRef value) {
        return set("athena_workgroup_name", value);
    }

    /** S3 bucket where Athena writes query results. Required. */
    public DataSinkAthena athenaResultsS3Bucket(String value) {
        return set("athena_results_s3_bucket", value);
    }

    /** S3 bucket where Athena writes query results. Required. From an environment variable. */
    public DataSinkAthena athenaResultsS3Bucket(EnvRef value) {
        return set("athena_results_s3_bucket", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). */
    public DataSinkAthena region(String value) {
        return set("region", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). From an environment variable. */
    public DataSinkAthena region(EnvRef value) {
        return set("region", value);
    }

    /** S3 endpoint URL, for S3-compatible stores (default: AWS). */
    public DataSinkAthena s3Endpoint(String value) {
        return set("s3_endpoint", value);
    }

    /** S3 endpoint URL, for S3-compatible stores (default: AWS). From an environment variable. */
    public DataSinkAthena s3Endpoint(EnvRef value) {
        return set("s3_endpoint", value);
    }
}
