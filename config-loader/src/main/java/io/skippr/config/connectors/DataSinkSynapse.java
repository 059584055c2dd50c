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

    /** Encrypt the connection (TLS); false only for tests. Default: true. */
    public DataSinkSynapse encrypt(boolean value) {
        return set("encrypt", value);
    }

    /** Encrypt the connection (TLS); false only for tests. Default: true. From an environment variable. */
    public DataSinkSynapse encrypt(EnvRef value) {
        return set("encrypt", value);
    }

    /** Storage account whose container Skippr stages Parquet files in. Required. */
    public DataSinkSynapse storageAccount(String value) {
        return set("storage_account", value);
    }

    /** Storage account whose container Skippr stages Parquet files in. Required. From an environment variable. */
    public DataSinkSynapse storageAccount(EnvRef value) {
        return set("storage_account", value);
    }

    /** Blob container the files are staged in. Required. */
    public DataSinkSynapse storageContainer(String value) {
        return set("storage_container", value);
    }

    /** Blob container the files are staged in. Required. From an environment variable. */
    public DataSinkSynapse storageContainer(EnvRef value) {
        return set("storage_container", value);
    }

    /** Key of the storage account: Skippr uploads with it and COPY INTO reads with it. Required. Secret: prefer an EnvRef. */
    public DataSinkSynapse storageAccountKey(String value) {
        return set("storage_account_key", value);
    }

    /** Key of the storage account: Skippr uploads with it and COPY INTO reads with it. Required. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkSynapse storageAccountKey(EnvRef value) {
        return set("storage_account_key", value);
    }

    /** Blob service URL, for tests and private endpoints (default: https://<storage_account>.blob.core.windows.net). */
    public DataSinkSynapse storageEndpoint(String value) {
        return set("storage_endpoint", value);
    }

    /** Blob service URL, for tests and private endpoints (default: https://<storage_account>.blob.core.windows.net). From an environment variable. */
    public DataSinkSynapse storageEndpoint(EnvRef value) {
        return set("storage_endpoint", value);
    }

    /** How the tables Skippr creates are distributed: round_robin, or hash (tables loaded with write_mode merge by hash of their first key column, others round_robin). Default: round_robin. One of round_robin, hash. */
    public DataSinkSynapse distribution(String value) {
        return set("distribution", value);
    }

    /** How the tables Skippr creates are distributed: round_robin, or hash (tables loaded with write_mode merge by hash of their first key column, others round_robin). Default: round_robin. One of round_robin, hash. From an environment variable. */
    public DataSinkSynapse distribution(EnvRef value) {
        return set("distribution", value);
    }
}
