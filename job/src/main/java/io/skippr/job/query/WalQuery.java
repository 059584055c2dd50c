package io.skippr.job.query;

import io.skippr.sinks.wal.WalStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * SQL over a pipeline's WAL store: an in-memory DuckDB with one view per stream over that stream's
 * committed Parquet segments.
 */
public final class WalQuery {
    private WalQuery() {}

    /** The result of a query: column names and rows as text. */
    public record Result(List<String> columns, List<List<String>> rows) {}

    public static Result run(Path stateDir, String sql) throws SQLException {
        Map<String, List<String>> segments = new WalStore(stateDir).segments();
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement()) {
            for (var stream : segments.entrySet()) {
                String files =
                        stream.getValue().stream()
                                .map(WalQuery::literal)
                                .collect(Collectors.joining(", "));
                st.execute(
                        "CREATE VIEW "
                                + identifier(stream.getKey())
                                + " AS SELECT * FROM read_parquet(["
                                + files
                                + "], union_by_name = true)");
            }
            return execute(st, sql);
        }
    }

    /**
     * SQL over the DuckDB database file a DuckDB data sink loads, opened read-only, with {@code
     * schema} as the default schema.
     */
    public static Result runOnDuckDb(Path database, String schema, String sql) throws SQLException {
        java.util.Properties readOnly = new java.util.Properties();
        readOnly.setProperty("duckdb.read_only", "true");
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:" + database, readOnly);
                Statement st = db.createStatement()) {
            st.execute("SET schema = " + literal(schema));
            return execute(st, sql);
        }
    }

    static Result execute(Statement st, String sql) throws SQLException {
        try (ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData meta = rs.getMetaData();
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                columns.add(meta.getColumnLabel(i));
            }
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns.size(); i++) {
                    Object v = rs.getObject(i);
                    row.add(v == null ? "NULL" : String.valueOf(v));
                }
                rows.add(row);
            }
            return new Result(columns, rows);
        }
    }

    /** The streams a pipeline's WAL store holds. */
    public static List<String> streams(Path stateDir) {
        return new ArrayList<>(new WalStore(stateDir).segments().keySet());
    }

    /** Renders a result as an aligned text table. */
    public static String table(Result result) {
        int n = result.columns().size();
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            width[i] = result.columns().get(i).length();
            for (List<String> row : result.rows()) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, result.columns(), width);
        for (int i = 0; i < n; i++) {
            out.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        }
        out.append('\n');
        result.rows().forEach(row -> line(out, row, width));
        out.append('(')
                .append(result.rows().size())
                .append(result.rows().size() == 1 ? " row)" : " rows)")
                .append('\n');
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] width) {
        for (int i = 0; i < cells.size(); i++) {
            out.append(i == 0 ? "" : " | ")
                    .append(String.format("%-" + width[i] + "s", cells.get(i)));
        }
        out.append('\n');
    }

    static String identifier(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
