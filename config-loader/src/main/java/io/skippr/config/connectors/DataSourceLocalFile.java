// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Local file data source. Reads CSV, JSONL or Parquet files matched by a glob. */
public final class DataSourceLocalFile extends Connector<DataSourceLocalFile> {
    public DataSourceLocalFile() {
        super(Role.DATA_SOURCE, "LocalFile");
    }

    /** Glob of the files to read, such as data/orders/*.csv. Required. */
    public DataSourceLocalFile path(String value) {
        return set("path", value);
    }

    /** Glob of the files to read, such as data/orders/*.csv. Required. From an environment variable. */
    public DataSourceLocalFile path(EnvRef value) {
        return set("path", value);
    }

    /** File format (default: from the file extension). One of parquet, jsonl, csv. */
    public DataSourceLocalFile format(String value) {
        return set("format", value);
    }

    /** File format (default: from the file extension). One of parquet, jsonl, csv. From an environment variable. */
    public DataSourceLocalFile format(EnvRef value) {
        return set("format", value);
    }

    /** Stream name of the files (default: the data source's name). */
    public DataSourceLocalFile stream(String value) {
        return set("stream", value);
    }

    /** Stream name of the files (default: the data source's name). From an environment variable. */
    public DataSourceLocalFile stream(EnvRef value) {
        return set("stream", value);
    }
}
