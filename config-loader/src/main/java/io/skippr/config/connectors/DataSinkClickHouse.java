// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** ClickHouse data sink. Loads tables into ClickHouse over its HTTP interface. */
public final class DataSinkClickHouse extends Connector<DataSinkClickHouse> {
    public DataSinkClickHouse() {
        super(Role.DATA_SINK, "ClickHouse");
    }

    /** ClickHouse server host name. Required. */
    public DataSinkClickHouse host(String value) {
        return set("host", value);
    }

    /** ClickHouse server host name. Required. From an environment variable. */
    public DataSinkClickHouse host(EnvRef value) {
        return set("host", value);
    }

    /** HTTP interface port. Default: 8123. */
    public DataSinkClickHouse port(long value) {
        return set("port", value);
    }

    /** HTTP interface port. Default: 8123. From an environment variable. */
    public DataSinkClickHouse port(EnvRef value) {
        return set("port", value);
    }

    /** User to log in as. Default: default. */
    public DataSinkClickHouse user(String value) {
        return set("user", value);
    }

    /** User to log in as. Default: default. From an environment variable. */
    public DataSinkClickHouse user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. */
    public DataSinkClickHouse password(String value) {
        return set("password", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkClickHouse password(EnvRef value) {
        return set("password", value);
    }

    /** Database the tables are created in. Default: default. */
    public DataSinkClickHouse database(String value) {
        return set("database", value);
    }

    /** Database the tables are created in. Default: default. From an environment variable. */
    public DataSinkClickHouse database(EnvRef value) {
        return set("database", value);
    }

    /** Use HTTPS. Default: false. */
    public DataSinkClickHouse secure(boolean value) {
        return set("secure", value);
    }

    /** Use HTTPS. Default: false. From an environment variable. */
    public DataSinkClickHouse secure(EnvRef value) {
        return set("secure", value);
    }
}
