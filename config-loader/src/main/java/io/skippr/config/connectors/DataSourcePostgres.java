// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;
import java.util.List;

/** PostgreSQL data source. Reads tables from a PostgreSQL database. */
public final class DataSourcePostgres extends Connector<DataSourcePostgres> {
    public DataSourcePostgres() {
        super(Role.DATA_SOURCE, "Postgres");
    }

    /** PostgreSQL server host name. Required. */
    public DataSourcePostgres host(String value) {
        return set("host", value);
    }

    /** PostgreSQL server host name. Required. From an environment variable. */
    public DataSourcePostgres host(EnvRef value) {
        return set("host", value);
    }

    /** PostgreSQL server port. Default: 5432. */
    public DataSourcePostgres port(long value) {
        return set("port", value);
    }

    /** PostgreSQL server port. Default: 5432. From an environment variable. */
    public DataSourcePostgres port(EnvRef value) {
        return set("port", value);
    }

    /** Role to log in as. Required. */
    public DataSourcePostgres user(String value) {
        return set("user", value);
    }

    /** Role to log in as. Required. From an environment variable. */
    public DataSourcePostgres user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the role. Secret: prefer an EnvRef. */
    public DataSourcePostgres password(String value) {
        return set("password", value);
    }

    /** Password of the role. Secret: prefer an EnvRef. From an environment variable. */
    public DataSourcePostgres password(EnvRef value) {
        return set("password", value);
    }

    /** Database to connect to. Required. */
    public DataSourcePostgres database(String value) {
        return set("database", value);
    }

    /** Database to connect to. Required. From an environment variable. */
    public DataSourcePostgres database(EnvRef value) {
        return set("database", value);
    }

    /** Schema whose tables are read. Default: public. */
    public DataSourcePostgres schema(String value) {
        return set("schema", value);
    }

    /** Schema whose tables are read. Default: public. From an environment variable. */
    public DataSourcePostgres schema(EnvRef value) {
        return set("schema", value);
    }

    /** Tables to read, by name or pattern such as orders_* (default: every table of the schema). */
    public DataSourcePostgres tables(List<String> value) {
        return set("tables", value);
    }

    /** Tables to read, by name or pattern such as orders_* (default: every table of the schema). */
    public DataSourcePostgres tables(String... value) {
        return set("tables", List.of(value));
    }

    /** Column whose growth marks new or changed rows (such as updated_at or id), for incremental syncs. */
    public DataSourcePostgres cursorColumn(String value) {
        return set("cursor_column", value);
    }

    /** Column whose growth marks new or changed rows (such as updated_at or id), for incremental syncs. From an environment variable. */
    public DataSourcePostgres cursorColumn(EnvRef value) {
        return set("cursor_column", value);
    }

    /** How changes are read: cdc (logical replication: every insert, update and delete), cursor (rows whose cursor_column grew) or full (every row each run); default cursor with cursor_column, else full. One of cdc, cursor, full. */
    public DataSourcePostgres replicationMethod(String value) {
        return set("replication_method", value);
    }

    /** How changes are read: cdc (logical replication: every insert, update and delete), cursor (rows whose cursor_column grew) or full (every row each run); default cursor with cursor_column, else full. One of cdc, cursor, full. From an environment variable. */
    public DataSourcePostgres replicationMethod(EnvRef value) {
        return set("replication_method", value);
    }

    /** Logical replication slot of replication_method cdc (default skippr_<pipeline>). */
    public DataSourcePostgres slotName(String value) {
        return set("slot_name", value);
    }

    /** Logical replication slot of replication_method cdc (default skippr_<pipeline>). From an environment variable. */
    public DataSourcePostgres slotName(EnvRef value) {
        return set("slot_name", value);
    }

    /** Publication of replication_method cdc (default skippr_<pipeline>). */
    public DataSourcePostgres publication(String value) {
        return set("publication", value);
    }

    /** Publication of replication_method cdc (default skippr_<pipeline>). From an environment variable. */
    public DataSourcePostgres publication(EnvRef value) {
        return set("publication", value);
    }

    /** replication_method cdc: warn when the slot keeps more than this many MiB of WAL on the server (default 1024). */
    public DataSourcePostgres slotWalWarningMb(long value) {
        return set("slot_wal_warning_mb", value);
    }

    /** replication_method cdc: warn when the slot keeps more than this many MiB of WAL on the server (default 1024). From an environment variable. */
    public DataSourcePostgres slotWalWarningMb(EnvRef value) {
        return set("slot_wal_warning_mb", value);
    }

    /** replication_method cdc: warn when the slot has not been read for this many minutes (PostgreSQL 17 and later; before 17, when it is not being read and keeps more than slot_wal_warning_mb) (default 60). */
    public DataSourcePostgres slotInactiveWarningMinutes(long value) {
        return set("slot_inactive_warning_minutes", value);
    }

    /** replication_method cdc: warn when the slot has not been read for this many minutes (PostgreSQL 17 and later; before 17, when it is not being read and keeps more than slot_wal_warning_mb) (default 60). From an environment variable. */
    public DataSourcePostgres slotInactiveWarningMinutes(EnvRef value) {
        return set("slot_inactive_warning_minutes", value);
    }

    /** TLS mode of the connection, as in libpq. Default: prefer. One of disable, allow, prefer, require, verify-ca, verify-full. */
    public DataSourcePostgres sslmode(String value) {
        return set("sslmode", value);
    }

    /** TLS mode of the connection, as in libpq. Default: prefer. One of disable, allow, prefer, require, verify-ca, verify-full. From an environment variable. */
    public DataSourcePostgres sslmode(EnvRef value) {
        return set("sslmode", value);
    }

    /** CA certificate file that sslmode verify-ca and verify-full check the server against (default: ~/.postgresql/root.crt, as in libpq). */
    public DataSourcePostgres sslrootcert(String value) {
        return set("sslrootcert", value);
    }

    /** CA certificate file that sslmode verify-ca and verify-full check the server against (default: ~/.postgresql/root.crt, as in libpq). From an environment variable. */
    public DataSourcePostgres sslrootcert(EnvRef value) {
        return set("sslrootcert", value);
    }
}
