package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** PostgreSQL as a data source and as a data sink. */
public final class PostgresKinds implements KindProvider {
    private static final List<Field> CONNECTION =
            List.of(
                    Field.string("host", "PostgreSQL server host name").required(),
                    Field.integer("port", "PostgreSQL server port").defaultsTo(5432),
                    Field.string("user", "Role to log in as").required(),
                    Field.string("password", "Password of the role").secret(),
                    Field.string("database", "Database to connect to").required());

    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSource("Postgres", "PostgreSQL")
                        .description("Reads tables from a PostgreSQL database")
                        .fields(CONNECTION)
                        .fields(
                                Field.string("schema", "Schema whose tables are read")
                                        .defaultsTo("public"),
                                Field.list(
                                        "tables",
                                        "Tables to read, by name or pattern such as orders_*"
                                                + " (default: every table of the schema)"),
                                Field.string(
                                        "cursor_column",
                                        "Column whose growth marks new or changed rows (such as"
                                                + " updated_at or id), for incremental syncs"),
                                Field.choice(
                                        "replication_method",
                                        "How changes are read: cdc (logical replication: every"
                                                + " insert, update and delete), cursor (rows whose"
                                                + " cursor_column grew) or full (every row each"
                                                + " run); default cursor with cursor_column, else"
                                                + " full",
                                        "cdc",
                                        "cursor",
                                        "full"),
                                Field.string(
                                        "slot_name",
                                        "Logical replication slot of replication_method cdc"
                                                + " (default skippr_<pipeline>)"),
                                Field.string(
                                        "publication",
                                        "Publication of replication_method cdc (default"
                                                + " skippr_<pipeline>)"),
                                Field.integer(
                                        "slot_wal_warning_mb",
                                        "replication_method cdc: warn when the slot keeps more"
                                                + " than this many MiB of WAL on the server"
                                                + " (default 1024)"),
                                Field.integer(
                                        "slot_inactive_warning_minutes",
                                        "replication_method cdc: warn when the slot has not been"
                                                + " read for this many minutes (PostgreSQL 17 and"
                                                + " later; before 17, when it is not being read and"
                                                + " keeps more than slot_wal_warning_mb) (default"
                                                + " 60)"),
                                CommonFields.SSLMODE,
                                CommonFields.SSLROOTCERT)
                        .build(),
                KindSpec.dataSink("Postgres", "PostgreSQL", Guarantee.EXACTLY_ONCE)
                        .description("Loads tables into a PostgreSQL schema")
                        .fields(CONNECTION)
                        .fields(
                                Field.string("schema", "Schema the tables are created in")
                                        .defaultsTo("public"),
                                CommonFields.SSLMODE,
                                CommonFields.SSLROOTCERT)
                        .build());
    }
}
