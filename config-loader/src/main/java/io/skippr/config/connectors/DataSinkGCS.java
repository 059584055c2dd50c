// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Google Cloud Storage data sink. Writes files to a GCS bucket. */
public final class DataSinkGCS extends Connector<DataSinkGCS> {
    public DataSinkGCS() {
        super(Role.DATA_SINK, "GCS");
    }

    /** Bucket the files are written to. Required. */
    public DataSinkGCS bucket(String value) {
        return set("bucket", value);
    }

    /** Bucket the files are written to. Required. From an environment variable. */
    public DataSinkGCS bucket(EnvRef value) {
        return set("bucket", value);
    }

    /** Object name prefix, without a trailing slash. */
    public DataSinkGCS prefix(String value) {
        return set("prefix", value);
    }

    /** Object name prefix, without a trailing slash. From an environment variable. */
    public DataSinkGCS prefix(EnvRef value) {
        return set("prefix", value);
    }

    /** Google Cloud project (default: from the credentials). */
    public DataSinkGCS projectId(String value) {
        return set("project_id", value);
    }

    /** Google Cloud project (default: from the credentials). From an environment variable. */
    public DataSinkGCS projectId(EnvRef value) {
        return set("project_id", value);
    }

    /** Service account key file (default: application default credentials). */
    public DataSinkGCS credentialsFile(String value) {
        return set("credentials_file", value);
    }

    /** Service account key file (default: application default credentials). From an environment variable. */
    public DataSinkGCS credentialsFile(EnvRef value) {
        return set("credentials_file", value);
    }

    /** GCS JSON API endpoint, for tests and private endpoints (default: Google); plain http only on localhost, and then without credentials. */
    public DataSinkGCS endpoint(String value) {
        return set("endpoint", value);
    }

    /** GCS JSON API endpoint, for tests and private endpoints (default: Google); plain http only on localhost, and then without credentials. From an environment variable. */
    public DataSinkGCS endpoint(EnvRef value) {
        return set("endpoint", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. */
    public DataSinkGCS format(String value) {
        return set("format", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. From an environment variable. */
    public DataSinkGCS format(EnvRef value) {
        return set("format", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. */
    public DataSinkGCS compression(String value) {
        return set("compression", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. From an environment variable. */
    public DataSinkGCS compression(EnvRef value) {
        return set("compression", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. */
    public DataSinkGCS rollSizeMb(long value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. From an environment variable. */
    public DataSinkGCS rollSizeMb(EnvRef value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). */
    public DataSinkGCS rollIntervalSeconds(long value) {
        return set("roll_interval_seconds", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). From an environment variable. */
    public DataSinkGCS rollIntervalSeconds(EnvRef value) {
        return set("roll_interval_seconds", value);
    }
}
