// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** MotherDuck data sink. Loads tables into a MotherDuck database. */
public final class DataSinkMotherDuck extends Connector<DataSinkMotherDuck> {
    public DataSinkMotherDuck() {
        super(Role.DATA_SINK, "MotherDuck");
    }

    /** MotherDuck database name. Required. */
    public DataSinkMotherDuck database(String value) {
        return set("database", value);
    }

    /** MotherDuck database name. Required. From an environment variable. */
    public DataSinkMotherDuck database(EnvRef value) {
        return set("database", value);
    }

    /** MotherDuck access token. Required. Secret: prefer an EnvRef. */
    public DataSinkMotherDuck token(String value) {
        return set("token", value);
    }

    /** MotherDuck access token. Required. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkMotherDuck token(EnvRef value) {
        return set("token", value);
    }

    /** Schema the tables are created in. Default: main. */
    public DataSinkMotherDuck schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: main. From an environment variable. */
    public DataSinkMotherDuck schema(EnvRef value) {
        return set("schema", value);
    }
}
