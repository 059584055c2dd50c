package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.sql.SQLException;
import java.util.List;

/**
 * The fields of a split query's current row, in the order {@link SplitQuery} selects them: the
 * table's columns, the row's resume key as text, then (when {@link BinaryColumns#undecodableText}
 * gives one) the row's text for an undecodable row.
 */
interface RowFields {
    boolean isNull(int field) throws SQLException;

    /**
     * Column field {@code field} as the Java class of {@code kind}; null for NULL.
     *
     * @param jsonb true for a jsonb column
     */
    Object value(int field, DataType.Kind kind, boolean jsonb)
            throws SQLException, PgTypes.Unrepresentable;

    /** A field sent as text; null for NULL. */
    String text(int field) throws SQLException;

    /** A {@code text[]} field's elements; null for NULL. */
    List<String> texts(int field) throws SQLException;
}
