package io.skippr.sources.postgres;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.util.List;
import java.util.Objects;

/**
 * A table as discovered in the catalog: the stream it becomes is named after the table.
 *
 * @param schema the PostgreSQL schema holding the table
 * @param table the table name
 * @param columns the columns in table order
 * @param primaryKey the primary key's columns in key order; empty when the table has none
 * @param cursorColumn the incremental cursor column, or null
 */
public record TableInfo(
        String schema,
        String table,
        List<ColumnInfo> columns,
        List<String> primaryKey,
        String cursorColumn) {

    public TableInfo {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
    }

    /** The stream's name: the table's name. */
    public String stream() {
        return table;
    }

    /** {@code "schema"."table"}. */
    String qualifiedName() {
        return Sql.table(schema, table);
    }

    public StreamSchema streamSchema() {
        return new StreamSchema(
                table,
                columns.stream().map(c -> new Column(c.name(), c.type(), c.nullable())).toList(),
                primaryKey,
                cursorColumn);
    }

    /** True when the key is a single integer column, so the table can be split by key ranges. */
    public boolean hasIntegerKey() {
        if (primaryKey.size() != 1) {
            return false;
        }
        DataType.Kind kind = column(primaryKey.get(0)).type().kind();
        return kind == DataType.Kind.INT16
                || kind == DataType.Kind.INT32
                || kind == DataType.Kind.INT64;
    }

    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public ColumnInfo column(String name) {
        int i = indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(
                    "table " + qualifiedName() + " has no column " + Sql.show(name));
        }
        return columns.get(i);
    }
}
