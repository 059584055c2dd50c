package io.skippr.sinks.sql;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Creates and evolves target tables inside a commit transaction, per the schema evolution policy: a
 * missing table is created, a missing column is added (nullable), a column whose type cannot take
 * the stream's values is widened where {@link SqlDialect#change} allows it, and anything else stops
 * the commit with a {@link SchemaConflictException}. DDL runs under {@link SqlDialect#lockForDdl},
 * after reading the catalog again, so concurrent commits of one table do not race.
 */
public final class TargetTables {
    private final SqlSinkSettings settings;
    private final SqlDialect dialect;
    private final SqlNames names;

    public TargetTables(SqlSinkSettings settings) {
        this.settings = settings;
        this.dialect = settings.dialect();
        this.names = dialect.names();
    }

    /** The target columns of {@code schema}: target name and type, Skippr's columns last. */
    public LinkedHashMap<String, String> wanted(StreamSchema schema) {
        LinkedHashMap<String, String> columns = new LinkedHashMap<>();
        for (Column column : schema.columns()) {
            columns.put(names.column(column.name()), dialect.columnType(column.type()));
        }
        columns.put(SqlNames.ID, dialect.idType());
        columns.put(SqlNames.SYNCED_AT, dialect.syncedAtType());
        return columns;
    }

    /** The target names of the key columns. */
    public List<String> key(StreamSchema schema) {
        return schema.primaryKey().stream().map(names::column).toList();
    }

    /**
     * Makes {@code table} able to take rows of {@code schema}; returns its columns afterwards.
     *
     * @param key the primary key to create or require (merge), or empty
     */
    public LinkedHashMap<String, String> ensure(
            Connection c, String table, StreamSchema schema, List<String> key) throws SQLException {
        LinkedHashMap<String, String> existing = dialect.columns(c, settings.schema(), table);
        if (existing == null || !changes(table, existing, schema).isEmpty()) {
            refuseDdlInTransaction(c, table);
            dialect.lockForDdl(c, settings.schema(), table);
            existing = dialect.columns(c, settings.schema(), table);
            if (existing == null) {
                LinkedHashMap<String, String> wanted = wanted(schema);
                MarkerTable.execute(
                        c,
                        dialect.createTable(
                                settings.qualified(table),
                                new ArrayList<>(wanted.keySet()),
                                new ArrayList<>(wanted.values()),
                                key));
                return listed(c, table, "creating");
            }
            for (String ddl : changes(table, existing, schema)) {
                MarkerTable.execute(c, ddl);
            }
            existing = listed(c, table, "altering");
        }
        if (!key.isEmpty() && !dialect.hasUniqueKey(c, settings.schema(), table, key)) {
            dialect.lockForDdl(c, settings.schema(), table);
            if (!dialect.hasUniqueKey(c, settings.schema(), table, key)) {
                MarkerTable.execute(c, dialect.addPrimaryKey(settings.qualified(table), key));
            }
        }
        return existing;
    }

    /**
     * The statement that appends the rows of staging table {@code from} (rows of {@code schema}) to
     * {@code table}, whose columns are {@code target}: each column cast where the target's type
     * differs from the staged one.
     */
    public String appendFrom(
            String table, LinkedHashMap<String, String> target, StreamSchema schema, String from) {
        List<String> columns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (Column column : schema.columns()) {
            String name = dialect.quote(names.column(column.name()));
            String type = target.get(names.column(column.name()));
            columns.add(name);
            values.add(
                    dialect.columnType(column.type()).equals(type)
                            ? name
                            : "CAST(" + name + " AS " + type + ") AS " + name);
        }
        for (String own : List.of(SqlNames.ID, SqlNames.SYNCED_AT)) {
            columns.add(dialect.quote(own));
            values.add(dialect.quote(own));
        }
        return dialect.append(
                settings.qualified(table),
                columns,
                "SELECT " + String.join(", ", values) + " FROM " + from);
    }

    /**
     * Where DDL commits by itself ({@link SqlDialect#transactionalDdl} false: Snowflake), the
     * commit creates and evolves its tables before its transaction; a table that needs DDL inside
     * it was dropped or changed in between. Running the DDL there would commit the transaction's
     * earlier statements without the marker row, so the commit fails as retriable instead, and its
     * next attempt does the DDL first again.
     */
    void refuseDdlInTransaction(Connection c, String table) throws SQLException {
        if (!dialect.transactionalDdl() && !c.getAutoCommit()) {
            throw new SQLException(
                    "Table "
                            + settings.qualified(table)
                            + " changed between the commit's DDL and its transaction; the commit"
                            + " is tried again",
                    "40001");
        }
    }

    /**
     * The columns of {@code table}, which the commit just created or altered: a destination whose
     * catalog does not list it then (a name it cut or changed on the way) fails the commit here,
     * naming the table, rather than later with no columns to load.
     */
    private LinkedHashMap<String, String> listed(Connection c, String table, String ddl)
            throws SQLException {
        LinkedHashMap<String, String> columns = dialect.columns(c, settings.schema(), table);
        if (columns == null) {
            throw new SQLException(
                    "Table "
                            + settings.qualified(table)
                            + " is not in the destination's catalog after "
                            + ddl
                            + " it (did the destination store it under another name?)");
        }
        return columns;
    }

    /**
     * The DDL that lets {@code existing} take rows of {@code schema}; empty if none is needed.
     *
     * @throws SchemaConflictException if a column cannot take the stream's values
     */
    public List<String> changes(
            String table, LinkedHashMap<String, String> existing, StreamSchema schema) {
        List<String> ddl = new ArrayList<>();
        String qualified = settings.qualified(table);
        for (Column column : schema.columns()) {
            String name = names.column(column.name());
            String type = existing.get(name);
            if (type == null) {
                ddl.add(dialect.addColumn(qualified, name, dialect.columnType(column.type())));
                continue;
            }
            TypeChange change = dialect.change(type, column.type());
            switch (change.action()) {
                case KEEP -> {}
                case WIDEN -> ddl.add(dialect.alterColumnType(qualified, name, change.type()));
                case REFUSE ->
                        throw conflict(schema.stream(), table, column, type, change.reason());
            }
        }
        if (!existing.containsKey(SqlNames.ID)) {
            ddl.add(dialect.addColumn(qualified, SqlNames.ID, dialect.idType()));
        }
        if (!existing.containsKey(SqlNames.SYNCED_AT)) {
            ddl.add(dialect.addColumn(qualified, SqlNames.SYNCED_AT, dialect.syncedAtType()));
        }
        return ddl;
    }

    private SchemaConflictException conflict(
            String stream, String table, Column column, String existing, String reason) {
        return new SchemaConflictException(
                "Cannot load stream "
                        + stream
                        + " into "
                        + settings.qualified(table)
                        + ": column "
                        + dialect.quote(names.column(column.name()))
                        + " is "
                        + existing
                        + " there, and the stream now sends "
                        + describe(column.type())
                        + " values ("
                        + reason
                        + "). "
                        + dialect.evolutionPolicy()
                        + "; any other change is yours to make: alter the"
                        + " column (ALTER TABLE "
                        + settings.qualified(table)
                        + " ALTER COLUMN "
                        + dialect.quote(names.column(column.name()))
                        + " TYPE ...), or load into another schema or with write_mode replace.");
    }

    static String describe(DataType type) {
        return type.toString();
    }

    /** A stream whose schema the target table cannot take under the evolution policy. */
    public static final class SchemaConflictException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public SchemaConflictException(String message) {
            super(message);
        }
    }
}
