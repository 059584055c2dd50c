// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** PostgreSQL data sink. Loads tables into a PostgreSQL schema. */
public final class DataSinkPostgres extends Connector<DataSinkPostgres> {
    public DataSinkPostgres() {
        super(Role.DATA_SINK, "Postgres");
    }

    /** PostgreSQL server host name. Required. */
    public DataSinkPostgres host(String value) {
        return set("host", value);
    }

    /** PostgreSQL server host name. Required. From an environment variable. */
    public DataSinkPostgres host(EnvRef value) {
        return set("host", value);
    }

    /** PostgreSQL server port. Default: 5432. */
    public DataSinkPostgres port(long value) {
        return set("port", value);
    }

    /** PostgreSQL server port. Default: 5432. From an environment variable. */
    public DataSinkPostgres port(EnvRef value) {
        return set("port", value);
    }

    /** Role to log in as. Required. */
    public DataSinkPostgres user(String value) {
        return set("user", value);
    }

    /** Role to log in as. Required. From an environment variable. */
    public DataSinkPostgres user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the role. Secret: prefer an EnvRef. */
    public DataSinkPostgres password(String value) {
        return set("password", value);
    }

    /** Password of the role. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkPostgres password(EnvRef value) {
        return set("password", value);
    }

    /** Database to connect to. Required. */
    public DataSinkPostgres database(String value) {
        return set("database", value);
    }

    /** Database to connect to. Required. From an environment variable. */
    public DataSinkPostgres database(EnvRef value) {
        return set("database", value);
    }

    /** Schema the tables are created in. Default: public. */
    public DataSinkPostgres schema(String value) {
        return set("schema", value);
    }

    /** Schema the tables are created in. Default: public. From an environment variable. */
    public DataSinkPostgres schema(EnvRef value) {
        return set("schema", value);
    }

    /** TLS mode of the connection, as in libpq. Default: prefer. One of disable, allow, prefer, require, verify-ca, verify-full. */
    public DataSinkPostgres sslmode(String value) {
        return set("sslmode", value);
    }

    /** TLS mode of the connection, as in libpq. Default: prefer. One of disable, allow, prefer, require, verify-ca, verify-full. From an environment variable. */
    public DataSinkPostgres sslmode(EnvRef value) {
        return set("sslmode", value);
    }

    /** CA certificate file that sslmode verify-ca and verify-full check the server against (default: ~/.postgresql/root.crt, as in libpq). */
    public DataSinkPostgres sslrootcert(String value) {
        return set("sslrootcert", value);
    }

    /** CA certificate file that sslmode verify-ca and verify-full check the server against (default: ~/.postgresql/root.crt, as in libpq). From an environment variable. */
    public DataSinkPostgres sslrootcert(EnvRef value) {
        return set("sslrootcert", value);
    }
}
