package io.skippr.sinks.duckdb;

import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A DuckDB database file in a test's temporary folder, read back through plain JDBC. */
final class TestDuck {
    final Path file;
    final String schema;

    TestDuck(Path dir, String schema) {
        this.file = dir.resolve("warehouse.duckdb");
        this.schema = schema;
    }

    DuckDbDatabase database() {
        return DuckDbDatabase.file(file);
    }

    SqlSinkSettings prepare(String pipeline, boolean bounded, WriteMode mode) {
        return SqlSinks.prepare(database(), pipeline, "warehouse", schema, bounded, mode);
    }

    String table(String table) {
        return quote(schema) + "." + quote(table);
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** Every row of {@code sql}, each value as DuckDB's text (null for NULL). */
    List<List<String>> rows(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    List<String> one(String sql) throws SQLException {
        List<List<String>> rows = rows(sql);
        if (rows.isEmpty()) {
            throw new AssertionError("no row from " + sql);
        }
        return rows.get(0);
    }

    void exec(String... sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    boolean exists(String table) throws SQLException {
        return !rows("SELECT 1 FROM duckdb_tables() WHERE schema_name = '"
                        + schema.replace("'", "''")
                        + "' AND table_name = '"
                        + table.replace("'", "''")
                        + "'")
                .isEmpty();
    }

    List<String> staging() throws SQLException {
        return rows(
                        "SELECT table_name FROM duckdb_tables() WHERE starts_with(table_name,"
                                + " '_skippr_stage_')")
                .stream()
                .map(r -> r.get(0))
                .toList();
    }
}
