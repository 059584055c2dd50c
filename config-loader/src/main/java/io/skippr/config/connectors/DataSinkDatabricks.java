// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Databricks data sink. Loads Delta tables through a Databricks SQL warehouse. */
public final class DataSinkDatabricks extends Connector<DataSinkDatabricks> {
    public DataSinkDatabricks() {
        super(Role.DATA_SINK, "Databricks");
    }

    /** Workspace host name. Required. */
    public DataSinkDatabricks serverHostname(String value) {
        return set("server_hostname", value);
    }

    /** Workspace host name. Required. From an environment variable. */
    public DataSinkDatabricks serverHostname(EnvRef value) {
        return set("server_hostname", value);
    }

    /** HTTP path of the SQL warehouse (/sql/1.0/warehouses/<id>). Required. */
    public DataSinkDatabricks httpPath(String value) {
        return set("http_path", value);
    }

    /** HTTP path of the SQL warehouse (/sql/1.0/warehouses/<id>). Required. From an environment variable. */
    public DataSinkDatabricks httpPath(EnvRef value) {
        return set("http_path", value);
    }

    /** Personal access token. Required. Secret: prefer an EnvRef. */
    public DataSinkDatabricks accessToken(String value) {
        return set("access_token", value);
    }

    /** Personal access token. Required. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkDatabricks accessToken(EnvRef value) {
        return set("access_token", value);
    }

    /** Unity Catalog catalog. Default: main. */
    public DataSinkDatabricks catalog(String value) {
        return set("catalog", value);
    }

    /** Unity Catalog catalog. Default: main. From an environment variable. */
    public DataSinkDatabricks catalog(EnvRef value) {
        return set("catalog", value);
    }

    /** Schema the tables are created in. Default: default. */
    public DataSinkDatabricks schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: default. From an environment variable. */
    public DataSinkDatabricks schema(EnvRef value) {
        return set("schema", value);
    }

    /** Unity Catalog volume of the schema that Skippr stages Parquet files in (created if absent). Default: skippr_staging. */
    public DataSinkDatabricks volume(String value) {
        return set("volume", value);
    }

    /** Unity Catalog volume of the schema that Skippr stages Parquet files in (created if absent). Default: skippr_staging. From an environment variable. */
    public DataSinkDatabricks volume(EnvRef value) {
        return set("volume", value);
    }

    /** URL of the workspace's REST APIs, for tests and private deployments (default: https://<server_hostname>). */
    public DataSinkDatabricks endpoint(String value) {
        return set("endpoint", value);
    }

    /** URL of the workspace's REST APIs, for tests and private deployments (default: https://<server_hostname>). From an environment variable. */
    public DataSinkDatabricks endpoint(EnvRef value) {
        return set("endpoint", value);
    }
}
