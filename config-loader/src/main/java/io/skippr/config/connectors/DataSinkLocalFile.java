// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Local file data sink. Writes files into a local folder. */
public final class DataSinkLocalFile extends Connector<DataSinkLocalFile> {
    public DataSinkLocalFile() {
        super(Role.DATA_SINK, "LocalFile");
    }

    /** Folder the files are written to. Required. */
    public DataSinkLocalFile path(String value) {
        return set("path", value);
    }

    /** Folder the files are written to. Required. From an environment variable. */
    public DataSinkLocalFile path(EnvRef value) {
        return set("path", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. */
    public DataSinkLocalFile format(String value) {
        return set("format", value);
    }

    /** File format of the written files. Default: parquet. One of parquet, jsonl, csv. From an environment variable. */
    public DataSinkLocalFile format(EnvRef value) {
        return set("format", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. */
    public DataSinkLocalFile compression(String value) {
        return set("compression", value);
    }

    /** Compression codec (default: snappy for parquet, none for jsonl and csv). One of snappy, zstd, gzip, none. From an environment variable. */
    public DataSinkLocalFile compression(EnvRef value) {
        return set("compression", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. */
    public DataSinkLocalFile rollSizeMb(long value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one holds this many MiB. Default: 128. From an environment variable. */
    public DataSinkLocalFile rollSizeMb(EnvRef value) {
        return set("roll_size_mb", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). */
    public DataSinkLocalFile rollIntervalSeconds(long value) {
        return set("roll_interval_seconds", value);
    }

    /** Start a new file once one has been open this long (default: files roll only at checkpoints and by size). From an environment variable. */
    public DataSinkLocalFile rollIntervalSeconds(EnvRef value) {
        return set("roll_interval_seconds", value);
    }
}
