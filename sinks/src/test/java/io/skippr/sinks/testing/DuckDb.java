package io.skippr.sinks.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.duckdb.DuckDBConnection;

/** Reads files back with an in-memory DuckDB, for assertions and for the fakes' loads. */
public final class DuckDb {
    private DuckDb() {}

    /**
     * The in-memory DuckDB the fakes read staged Parquet files with, started once per JVM (a start
     * costs about half a second and a close a third, from JFR of the conformance suites): it holds
     * no data, each caller only reads files through it.
     */
    private static DuckDBConnection reader;

    /**
     * A new connection to the shared in-memory DuckDB, for reading files (close it when done). The
     * database is shared, and so are settings of global scope: callers set only {@code TimeZone},
     * all to UTC.
     */
    public static synchronized Connection reader() throws SQLException {
        if (reader == null) {
            reader = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
        }
        return reader.duplicate();
    }

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
