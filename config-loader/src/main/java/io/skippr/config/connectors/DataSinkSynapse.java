// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Azure Synapse Analytics data sink. Loads tables into a Synapse SQL pool. */
public final class DataSinkSynapse extends Connector<DataSinkSynapse> {
    public DataSinkSynapse() {
        super(Role.DATA_SINK, "Synapse");
    }

    /** SQL endpoint host name. Required. */
    public DataSinkSynapse host(String value) {
        return set("host", value);
    }

    /** SQL endpoint host name. Required. From an environment variable. */
    public DataSinkSynapse host(EnvRef value) {
        return set("host", value);
    }

    /** SQL endpoint port. Default: 1433. */
    public DataSinkSynapse port(long value) {
        return set("port", value);
    }

    /** SQL endpoint port. Default: 1433. From an environment variable. */
    public DataSinkSynapse port(EnvRef value) {
        return set("port", value);
    }

    /** User to log in as. Required. */
    public DataSinkSynapse user(String value) {
        return set("user", value);
    }

    /** User to log in as. Required. From an environment variable. */
    public DataSinkSynapse user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. */
    public DataSinkSynapse password(String value) {
        return set("password", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkSynapse password(EnvRef value) {
        return set("password", value);
    }

    /** SQL pool database. Required. */
    public DataSinkSynapse database(String value) {
        return set("database", value);
    }

    /** SQL pool database. Required. From an environment variable. */
    public DataSinkSynapse database(EnvRef value) {
        return set("database", value);
    }

    /** Schema the tables are created in. Default: dbo. */
    public DataSinkSynapse schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: dbo. From an environment variable. */
    public DataSinkSynapse schema(EnvRef value) {
        return set("schema", value);
    }
}
