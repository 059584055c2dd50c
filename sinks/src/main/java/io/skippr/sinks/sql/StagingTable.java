package io.skippr.sinks.sql;

import io.skippr.core.record.StreamSchema;
import java.util.List;

/**
 * One staging table: the rows of one stream at one schema version, from one writer subtask, for one
 * checkpoint. Its columns are the stream's (target names and types) followed by {@link
 * SqlNames#ID}, {@link SqlNames#SYNCED_AT}, {@link SqlNames#DELETE_ROW} and {@link SqlNames#SEQ}.
 * (Staging written before version 3 of the committables calls {@link SqlNames#DELETE_ROW} {@link
 * SqlNames#DELETE_ROW_BEFORE_V3}.)
 *
 * @param schemaName the database schema it lives in (the target schema)
 * @param name its name ({@link SqlNames#staging})
 * @param columns the target names of the stream's columns, in the schema's order
 * @param types the column types, in the same order
 * @param comment what the table is, as JSON: which pipeline, sink, run, subtask, epoch and seq
 * @param deleteRow the name of its {@link SqlNames#DELETE_ROW} column
 */
public record StagingTable(
        String schemaName,
        String name,
        StreamSchema schema,
        List<String> columns,
        List<String> types,
        String comment,
        String deleteRow) {

    /** The staging table {@code name} for rows of {@code schema}, typed by {@code dialect}. */
    public static StagingTable of(
            SqlDialect dialect,
            String schemaName,
            String name,
            StreamSchema schema,
            String comment) {
        List<String> columns = new java.util.ArrayList<>();
        List<String> types = new java.util.ArrayList<>();
        for (io.skippr.core.record.Column column : schema.columns()) {
            columns.add(dialect.names().column(column.name()));
            types.add(dialect.columnType(column.type()));
        }
        return new StagingTable(
                schemaName, name, schema, columns, types, comment, SqlNames.DELETE_ROW);
    }

    /**
     * The staging table of {@code rows}, as the writer that staged them named its columns (files
     * staged before version 3 are loaded into a table that calls the delete flag as they do).
     */
    public static StagingTable of(SqlDialect dialect, String schemaName, SqlCommittable rows) {
        StagingTable table = of(dialect, schemaName, rows.staging(), rows.schema(), "");
        return new StagingTable(
                schemaName,
                table.name,
                table.schema,
                table.columns,
                table.types,
                table.comment,
                rows.deleteRowColumn());
    }

    /** Its CREATE TABLE: the stream's columns, then Skippr's four (id, synced at, deleted, seq). */
    public String create(SqlDialect dialect) {
        List<String> all = new java.util.ArrayList<>(columns);
        List<String> allTypes = new java.util.ArrayList<>(types);
        all.addAll(List.of(SqlNames.ID, SqlNames.SYNCED_AT, deleteRow, SqlNames.SEQ));
        allTypes.addAll(
                List.of(
                        dialect.idType(),
                        dialect.syncedAtType(),
                        dialect.columnType(io.skippr.core.record.DataType.BOOLEAN),
                        dialect.columnType(io.skippr.core.record.DataType.INT64)));
        return dialect.createTable(dialect.qualified(schemaName, name), all, allTypes, List.of());
    }
}
