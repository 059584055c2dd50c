package io.skippr.sinks.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** Reads files back with an in-memory DuckDB, for assertions. */
public final class DuckDb {
    private DuckDb() {}

    /** The first row of {@code sql}, with {@code $files} replaced by a list of the files. */
    public static List<Object> row(String sql, List<String> files) throws SQLException {
        String list =
                files.stream()
                        .map(f -> "'" + f.replace("'", "''") + "'")
                        .collect(Collectors.joining(", ", "[", "]"));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql.replace("$files", list))) {
            rs.next();
            List<Object> row = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                row.add(rs.getObject(i));
            }
            return row;
        }
    }
}
