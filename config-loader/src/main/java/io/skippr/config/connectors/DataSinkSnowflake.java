// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** Snowflake data sink. Loads tables into Snowflake through an internal stage. */
public final class DataSinkSnowflake extends Connector<DataSinkSnowflake> {
    public DataSinkSnowflake() {
        super(Role.DATA_SINK, "Snowflake");
    }

    /** Account identifier (orgname-account). Required. */
    public DataSinkSnowflake account(String value) {
        return set("account", value);
    }

    /** Account identifier (orgname-account). Required. From an environment variable. */
    public DataSinkSnowflake account(EnvRef value) {
        return set("account", value);
    }

    /** User to log in as. Required. */
    public DataSinkSnowflake user(String value) {
        return set("user", value);
    }

    /** User to log in as. Required. From an environment variable. */
    public DataSinkSnowflake user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. */
    public DataSinkSnowflake password(String value) {
        return set("password", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkSnowflake password(EnvRef value) {
        return set("password", value);
    }

    /** Private key file for key-pair authentication. */
    public DataSinkSnowflake privateKeyFile(String value) {
        return set("private_key_file", value);
    }

    /** Private key file for key-pair authentication. From an environment variable. */
    public DataSinkSnowflake privateKeyFile(EnvRef value) {
        return set("private_key_file", value);
    }

    /** Passphrase of the key. Secret: prefer an EnvRef. */
    public DataSinkSnowflake privateKeyPassphrase(String value) {
        return set("private_key_passphrase", value);
    }

    /** Passphrase of the key. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkSnowflake privateKeyPassphrase(EnvRef value) {
        return set("private_key_passphrase", value);
    }

    /** Database to load into. Required. */
    public DataSinkSnowflake database(String value) {
        return set("database", value);
    }

    /** Database to load into. Required. From an environment variable. */
    public DataSinkSnowflake database(EnvRef value) {
        return set("database", value);
    }

    /** Schema the tables are created in. Default: PUBLIC. */
    public DataSinkSnowflake schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: PUBLIC. From an environment variable. */
    public DataSinkSnowflake schema(EnvRef value) {
        return set("schema", value);
    }

    /** Virtual warehouse that runs loads. Required. */
    public DataSinkSnowflake warehouse(String value) {
        return set("warehouse", value);
    }

    /** Virtual warehouse that runs loads. Required. From an environment variable. */
    public DataSinkSnowflake warehouse(EnvRef value) {
        return set("warehouse", value);
    }

    /** Role to use (default: the user's). */
    public DataSinkSnowflake role(String value) {
        return set("role", value);
    }

    /** Role to use (default: the user's). From an environment variable. */
    public DataSinkSnowflake role(EnvRef value) {
        return set("role", value);
    }

    /** Named internal stage in the schema that Skippr PUTs Parquet files to (created if absent). Default: _skippr_stage. */
    public DataSinkSnowflake stage(String value) {
        return set("stage", value);
    }

    /** Named internal stage in the schema that Skippr PUTs Parquet files to (created if absent). Default: _skippr_stage. From an environment variable. */
    public DataSinkSnowflake stage(EnvRef value) {
        return set("stage", value);
    }

    /** URL of the account when it is not https://<account>.snowflakecomputing.com (private link, tests). */
    public DataSinkSnowflake endpoint(String value) {
        return set("endpoint", value);
    }

    /** URL of the account when it is not https://<account>.snowflakecomputing.com (private link, tests). From an environment variable. */
    public DataSinkSnowflake endpoint(EnvRef value) {
        return set("endpoint", value);
    }
}
