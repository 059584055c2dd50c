// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** DuckDB data sink. Loads tables into a DuckDB database file. */
public final class DataSinkDuckDB extends Connector<DataSinkDuckDB> {
    public DataSinkDuckDB() {
        super(Role.DATA_SINK, "DuckDB");
    }

    /** DuckDB database file (created if missing). Required. */
    public DataSinkDuckDB path(String value) {
        return set("path", value);
    }

    /** DuckDB database file (created if missing). Required. From an environment variable. */
    public DataSinkDuckDB path(EnvRef value) {
        return set("path", value);
    }

    /** Schema the tables are created in. Default: main. */
    public DataSinkDuckDB schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: main. From an environment variable. */
    public DataSinkDuckDB schema(EnvRef value) {
        return set("schema", value);
    }
}
