// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** DuckDB schema sink. Keeps DuckDB table definitions in step with source schemas. */
public final class SchemaSinkDuckDB extends Connector<SchemaSinkDuckDB> {
    public SchemaSinkDuckDB() {
        super(Role.SCHEMA_SINK, "DuckDB");
    }

    /** DuckDB database file (created if missing). Required. */
    public SchemaSinkDuckDB path(String value) {
        return set("path", value);
    }

    /** DuckDB database file (created if missing). Required. From an environment variable. */
    public SchemaSinkDuckDB path(EnvRef value) {
        return set("path", value);
    }

    /** Schema the tables are created in. Default: main. */
    public SchemaSinkDuckDB schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: main. From an environment variable. */
    public SchemaSinkDuckDB schema(EnvRef value) {
        return set("schema", value);
    }
}
