package io.skippr.cli.verify;

import io.skippr.sinks.clickhouse.ClickHouseReadBack;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** How a {@link Side} runs its queries: over JDBC, or over ClickHouse's HTTP interface. */
interface Reader {
    /** The rows {@code sql} selects, each column as text (NULL as null). */
    List<String[]> query(String sql, List<String> params) throws SQLException;

    /**
     * The SQL standing for {@code value}: a placeholder (the value added to params) or a literal.
     */
    String bind(String value, List<String> params);

    /** Over JDBC, each value bound to a {@code ?}. */
    static Reader jdbc(Connection connection) {
        return new Reader() {
            @Override
            public List<String[]> query(String sql, List<String> params) throws SQLException {
                try (PreparedStatement s = connection.prepareStatement(sql)) {
                    for (int i = 0; i < params.size(); i++) {
                        s.setString(i + 1, params.get(i));
                    }
                    try (ResultSet rs = s.executeQuery()) {
                        int n = rs.getMetaData().getColumnCount();
                        List<String[]> rows = new ArrayList<>();
                        while (rs.next()) {
                            String[] row = new String[n];
                            for (int i = 0; i < n; i++) {
                                row[i] = rs.getString(i + 1);
                            }
                            rows.add(row);
                        }
                        return rows;
                    }
                }
            }

            @Override
            public String bind(String value, List<String> params) {
                params.add(value);
                return "?";
            }
        };
    }

    /**
     * Over ClickHouse's HTTP interface, values written as quoted literals (the server tested,
     * 18.16, has no query parameters).
     */
    static Reader clickHouse(ClickHouseReadBack database) {
        return new Reader() {
            @Override
            public List<String[]> query(String sql, List<String> params) throws SQLException {
                try {
                    return database.query(sql);
                } catch (InterruptedException e) {
                    throw interrupted(e);
                }
            }

            @Override
            public String bind(String value, List<String> params) {
                return ClickHouseReadBack.literal(value);
            }
        };
    }

    /** An interrupted ClickHouse read, the thread's interrupt kept. */
    static SQLException interrupted(InterruptedException e) {
        Thread.currentThread().interrupt();
        return new SQLException("interrupted while reading ClickHouse", e);
    }
}
