// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Azure Blob Storage data sink. Writes files to an Azure Blob Storage container. */
public final class DataSinkAzureBlob extends Connector<DataSinkAzureBlob> {
    public DataSinkAzureBlob() {
        super(Role.DATA_SINK, "AzureBlob");
    }

    /** Storage account name. Required. */
    public DataSinkAzureBlob accountName(String value) {
        return set("account_name", value);
    }

    /** Storage account name. Required. From an environment variable. */
    public DataSinkAzureBlob accountName(EnvRef value) {
        return set("account_name", value);
    }

    /** Storage account key (default: the Azure credential chain). Secret: prefer an EnvRef. */
    public DataSinkAzureBlob accountKey(String value) {
        return set("account_key", value);
    }

    /** Storage account key (default: the Azure credential chain). Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkAzureBlob accountKey(EnvRef value) {
        return set("account_key", value);
    }

    /** Container the blobs are written to. Required. */
    public DataSinkAzureBlob container(String value) {
        return set("container", value);
    }

    /** Container the blobs are written to. Required. From an environment variable. */
    public DataSinkAzureBlob container(EnvRef value) {
        return set("container", value);
    }

    /** Blob name prefix, without a trailing slash. */
    public DataSinkAzureBlob prefix(String value) {
        return set("prefix", value);
    }

    /** Blob name prefix, without a trailing slash. From an environment variable. */
    public DataSinkAzureBlob prefix(EnvRef value) {
        return set("prefix", value);
    }

    /** Blob service URL (default: https://<account_name>.blob.core.windows.net). */
    public DataSinkAzureBlob endpoint(String value) {
        return set("endpoint", value);
    }

    /** Blob service URL (default: https://<account_name>.blob.core.windows.net). From an environment variable. */
    public DataSinkAzureBlob endpoint(EnvRef value) {
        return set("endpoint", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. */
    public DataSinkAzureBlob format(String value) {
        return set("format", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. From an environment variable. */
    public DataSinkAzureBlob format(EnvRef value) {
        return set("format", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. */
    public DataSinkAzureBlob compression(String value) {
        return set("compression", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. From an environment variable. */
    public DataSinkAzureBlob compression(EnvRef value) {
        return set("compression", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. */
    public DataSinkAzureBlob rollSizeMb(long value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. From an environment variable. */
    public DataSinkAzureBlob rollSizeMb(EnvRef value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). */
    public DataSinkAzureBlob rollIntervalSeconds(long value) {
        return set("roll_interval_seconds", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). From an environment variable. */
    public DataSinkAzureBlob rollIntervalSeconds(EnvRef value) {
        return set("roll_interval_seconds", value);
    }
}
