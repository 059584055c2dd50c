package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The DuckDB sink, read back from its database file through JDBC, in read-only transactions.
 *
 * <p>The kit runs the sink in this JVM, and DuckDB refuses a second instance of an open file with
 * another configuration in the same process: a connection opened with {@code duckdb.read_only}
 * while the job starts would make the sink's writers fail to open the file (and the other way
 * round). So the fixture connects with the default configuration, which the driver's instance cache
 * serves from the sink's own open instance, and reads inside {@code BEGIN TRANSACTION READ ONLY}:
 * it sees committed data only and cannot write.
 */
final class DuckDbFixture implements SinkFixture {
    @Override
    public String kind() {
        return "DuckDB";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    DuckDB: {path: warehouse.duckdb, schema: raw}\n";
    }

    /**
     * Every row of the stream's table; none if the database file or the table does not exist (a
     * file that is not a DuckDB database, or a table that cannot be read, throws).
     */
    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        Path file = dir.resolve("warehouse.duckdb");
        if (!Files.exists(file)) {
            return List.of(); // connecting would create it
        }
        String table = table(stream);
        try (Connection c = open(file);
                Statement st = c.createStatement()) {
            st.execute("BEGIN TRANSACTION READ ONLY");
            try {
                if (!exists(c, table)) {
                    return List.of();
                }
                try (ResultSet rs =
                        st.executeQuery(
                                "SELECT * FROM raw.\"" + table.replace("\"", "\"\"") + "\"")) {
                    ResultSetMetaData meta = rs.getMetaData();
                    List<Map<String, Object>> rows = new ArrayList<>();
                    while (rs.next()) {
                        Map<String, Object> row = new LinkedHashMap<>();
                        for (int i = 1; i <= meta.getColumnCount(); i++) {
                            row.put(meta.getColumnLabel(i), rs.getObject(i));
                        }
                        rows.add(row);
                    }
                    return rows;
                }
            } finally {
                st.execute("ROLLBACK");
            }
        }
    }

    private static boolean exists(Connection c, String table) throws SQLException {
        try (PreparedStatement q =
                c.prepareStatement(
                        "SELECT count(*) FROM information_schema.tables"
                                + " WHERE table_schema = 'raw' AND table_name = ?")) {
            q.setString(1, table);
            try (ResultSet rs = q.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    /**
     * A connection with the driver's default configuration, the one the sink uses: in this JVM it
     * shares the sink's open instance instead of racing it for the file.
     */
    private static Connection open(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:duckdb:" + file);
    }

    /**
     * DuckDB cannot add a CHECK constraint to a table: the table is made again with one, under the
     * same name, columns and rows.
     */
    @Override
    public String refuse(Path dir, String stream, Set<Long> ids) throws Exception {
        String table = "raw.\"" + table(stream) + "\"";
        List<String> columns = new ArrayList<>();
        try (Connection c = open(dir.resolve("warehouse.duckdb"));
                Statement st = c.createStatement()) {
            try (PreparedStatement q =
                    c.prepareStatement(
                            "SELECT column_name, data_type FROM information_schema.columns"
                                    + " WHERE table_schema = 'raw' AND table_name = ?"
                                    + " ORDER BY ordinal_position")) {
                q.setString(1, table(stream));
                try (ResultSet rs = q.executeQuery()) {
                    while (rs.next()) {
                        columns.add("\"" + rs.getString(1) + "\" " + rs.getString(2));
                    }
                }
            }
            st.execute("CREATE TABLE raw.kit_copy AS SELECT * FROM " + table);
            st.execute("DROP TABLE " + table);
            st.execute(
                    "CREATE TABLE "
                            + table
                            + " ("
                            + String.join(", ", columns)
                            + ", CONSTRAINT kit_refuses CHECK (id NOT IN ("
                            + ids.stream()
                                    .map(String::valueOf)
                                    .collect(java.util.stream.Collectors.joining(", "))
                            + ")))");
            st.execute("INSERT INTO " + table + " SELECT * FROM raw.kit_copy");
            st.execute("DROP TABLE raw.kit_copy");
        }
        return "CHECK constraint failed";
    }

    /** A bounded run commits in one transaction (the global committer's). */
    @Override
    public boolean commitsARunAtOnce() {
        return true;
    }

    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    @Override
    public boolean storesExtremeTimestamps() {
        return false; // 64-bit microseconds: 294247 AD at most
    }
}
