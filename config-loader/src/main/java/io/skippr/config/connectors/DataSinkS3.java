// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Amazon S3 data sink. Writes files to an S3 bucket. */
public final class DataSinkS3 extends Connector<DataSinkS3> {
    public DataSinkS3() {
        super(Role.DATA_SINK, "S3");
    }

    /** S3 bucket the files are written to. Required. */
    public DataSinkS3 s3Bucket(String value) {
        return set("s3_bucket", value);
    }

    /** S3 bucket the files are written to. Required. From an environment variable. */
    public DataSinkS3 s3Bucket(EnvRef value) {
        return set("s3_bucket", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. */
    public DataSinkS3 s3Prefix(String value) {
        return set("s3_prefix", value);
    }

    /** Key prefix inside the bucket, without a trailing slash. From an environment variable. */
    public DataSinkS3 s3Prefix(EnvRef value) {
        return set("s3_prefix", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). */
    public DataSinkS3 region(String value) {
        return set("region", value);
    }

    /** AWS region (default: from the AWS SDK's region chain). From an environment variable. */
    public DataSinkS3 region(EnvRef value) {
        return set("region", value);
    }

    /** Endpoint URL, for S3-compatible stores (default: AWS). */
    public DataSinkS3 endpoint(String value) {
        return set("endpoint", value);
    }

    /** Endpoint URL, for S3-compatible stores (default: AWS). From an environment variable. */
    public DataSinkS3 endpoint(EnvRef value) {
        return set("endpoint", value);
    }

    /** Address the bucket in the path, not the host name. Default: false. */
    public DataSinkS3 pathStyleAccess(boolean value) {
        return set("path_style_access", value);
    }

    /** Address the bucket in the path, not the host name. Default: false. From an environment variable. */
    public DataSinkS3 pathStyleAccess(EnvRef value) {
        return set("path_style_access", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. */
    public DataSinkS3 format(String value) {
        return set("format", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. From an environment variable. */
    public DataSinkS3 format(EnvRef value) {
        return set("format", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. */
    public DataSinkS3 compression(String value) {
        return set("compression", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. From an environment variable. */
    public DataSinkS3 compression(EnvRef value) {
        return set("compression", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. */
    public DataSinkS3 rollSizeMb(long value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. From an environment variable. */
    public DataSinkS3 rollSizeMb(EnvRef value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). */
    public DataSinkS3 rollIntervalSeconds(long value) {
        return set("roll_interval_seconds", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). From an environment variable. */
    public DataSinkS3 rollIntervalSeconds(EnvRef value) {
        return set("roll_interval_seconds", value);
    }
}
