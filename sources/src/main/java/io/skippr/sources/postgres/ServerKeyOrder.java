package io.skippr.sources.postgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Compares a key with a split's resume key in PostgreSQL's order of the table's primary key, by
 * asking the server: the same comparison a split's query makes ({@link RowOrder#compare}), over a
 * row of the table's type built from the key's text ({@code jsonb_populate_record}), so each value
 * has its column's type and collation. One connection, opened at the first question.
 */
final class ServerKeyOrder implements AutoCloseable {
    private final PostgresConnectionConfig config;
    private Connection connection;

    ServerKeyOrder(PostgresConnectionConfig config) {
        this.config = config;
    }

    /** Whether the key of text values {@code key} lies after resume key {@code last}. */
    boolean after(TableInfo table, List<String> key, List<String> last) throws IOException {
        List<Object> params = new ArrayList<>();
        String compared = RowOrder.of(table).compare(SplitQuery.ALIAS, last, ">", params);
        String sql =
                "SELECT "
                        + compared
                        + " FROM (SELECT (jsonb_populate_record(NULL::"
                        + table.qualifiedName()
                        + ", jsonb_object(?::text[], ?::text[]))).*) AS "
                        + SplitQuery.ALIAS;
        try {
            if (connection == null || connection.isClosed()) {
                connection = config.connect();
            }
            try (PreparedStatement st = connection.prepareStatement(sql)) {
                SplitQuery.bind(st, params);
                st.setArray(
                        params.size() + 1,
                        connection.createArrayOf("text", table.primaryKey().toArray()));
                st.setArray(params.size() + 2, connection.createArrayOf("text", key.toArray()));
                try (ResultSet rs = st.executeQuery()) {
                    rs.next();
                    return rs.getBoolean(1);
                }
            }
        } catch (SQLException e) {
            throw new IOException(
                    "Comparing a key of "
                            + table.qualifiedName()
                            + " with a snapshot split's on "
                            + config.describe()
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
        }
    }
}
