package io.skippr.sinks.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.function.UnaryOperator;

/**
 * Catalog lookups in {@code pg_catalog}, which PostgreSQL and Redshift share: whether a schema
 * exists, and a table's columns with their types.
 */
public final class PgCatalog {
    private PgCatalog() {}

    public static boolean schemaExists(Connection c, String schema) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * The columns of {@code schema.table} in order, each with its type as {@code format_type}
     * spells it, passed through {@code spelling}; null when there is no such table.
     */
    public static LinkedHashMap<String, String> columns(
            Connection c, String schema, String table, UnaryOperator<String> spelling)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)"
                                + " FROM pg_catalog.pg_class c"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " LEFT JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid"
                                + " AND a.attnum > 0 AND NOT a.attisdropped"
                                + " WHERE n.nspname = ? AND c.relname = ?"
                                + " ORDER BY a.attnum")) {
            st.setString(1, schema);
            st.setString(2, table);
            try (ResultSet rs = st.executeQuery()) {
                LinkedHashMap<String, String> columns = null;
                while (rs.next()) {
                    if (columns == null) {
                        columns = new LinkedHashMap<>();
                    }
                    if (rs.getString(1) != null) {
                        columns.put(rs.getString(1), spelling.apply(rs.getString(2)));
                    }
                }
                return columns;
            }
        }
    }
}
