package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** The PostgreSQL sink, loading a schema of its own on the test server. */
final class PostgresFixture implements SinkFixture {
    @Override
    public String kind() {
        return "Postgres";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    private final String schema =
            "skippr_kit_dst_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    @Override
    public String sinkYaml(Path dir) {
        return "    Postgres:\n      host: "
                + SourceTable.env("SKIPPR_TEST_PG_HOST")
                + "\n      port: "
                + SourceTable.env("SKIPPR_TEST_PG_PORT")
                + "\n      user: "
                + SourceTable.env("SKIPPR_TEST_PG_USER")
                + "\n      password: ${KIT_DST_PW}\n"
                + "      database: "
                + SourceTable.env("SKIPPR_TEST_PG_DATABASE")
                + "\n      schema: "
                + schema
                + "\n      sslmode: disable\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_DST_PW", SourceTable.env("SKIPPR_TEST_PG_PASSWORD"));
    }

    /** The schema the sink loads, of this fixture alone. */
    String schema() {
        return schema;
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://"
                        + SourceTable.env("SKIPPR_TEST_PG_HOST")
                        + ":"
                        + SourceTable.env("SKIPPR_TEST_PG_PORT")
                        + "/"
                        + SourceTable.env("SKIPPR_TEST_PG_DATABASE")
                        + "?sslmode=disable",
                SourceTable.env("SKIPPR_TEST_PG_USER"),
                SourceTable.env("SKIPPR_TEST_PG_PASSWORD"));
    }

    /** Every row of the stream's table; none if the table (or the schema) does not exist. */
    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        try (Connection c = connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "SELECT * FROM \""
                                                + schema
                                                + "\".\""
                                                + table(stream).replace("\"", "\"\"")
                                                + "\"")) {
            ResultSetMetaData meta = rs.getMetaData();
            List<Map<String, Object>> rows = new ArrayList<>();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    row.put(meta.getColumnLabel(i), value(rs, i, meta.getColumnTypeName(i)));
                }
                rows.add(row);
            }
            return rows;
        } catch (SQLException e) {
            if (ABSENT.contains(e.getSQLState())) {
                return List.of();
            }
            throw e;
        }
    }

    /** undefined_table, invalid_schema_name: the sink has not created them (yet). */
    private static final Set<String> ABSENT = Set.of("42P01", "3F000");

    /** Times and timestamps with their microseconds, which {@code java.sql.Time} drops. */
    private static Object value(ResultSet rs, int i, String type) throws SQLException {
        return switch (type) {
            case "time" -> rs.getObject(i, LocalTime.class);
            case "timestamp" -> rs.getObject(i, LocalDateTime.class);
            case "timestamptz" -> rs.getObject(i, OffsetDateTime.class);
            default -> rs.getObject(i);
        };
    }

    /**
     * As docs/connectors/postgres.md gives them: a name longer than 63 bytes keeps its first bytes
     * and ends in {@code _} and 8 hex digits of a hash of the whole name. Written out, not computed
     * by the product's {@code SqlNames}.
     */
    private static final Map<String, String> TABLES =
            Map.of(
                    HOSTILE_STREAM,
                    "order_items_uni",
                    LONG_STREAM,
                    "ssssssssssssssssssssssssssssssssssssssss_stream_tttttt_2292adca");

    private static final Map<String, String> COLUMNS =
            Map.of(LONG_COLUMN, "ccccccccccccccccccccccccccccccccccccccccccccc_column_d_5bb8cb6d");

    @Override
    public String table(String stream) {
        return SinkFixture.documented(TABLES, stream);
    }

    @Override
    public String column(String column) {
        return COLUMNS.getOrDefault(column, column);
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
    public String refuse(Path dir, String stream, Set<Long> ids) throws SQLException {
        try (Connection c = connect()) {
            c.createStatement()
                    .execute(
                            "ALTER TABLE \""
                                    + schema
                                    + "\".\""
                                    + table(stream)
                                    + "\" ADD CONSTRAINT kit_refuses CHECK (id NOT IN ("
                                    + ids.stream()
                                            .map(String::valueOf)
                                            .collect(java.util.stream.Collectors.joining(", "))
                                    + "))");
        }
        return "violates check constraint \"kit_refuses\"";
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = connect()) {
            c.createStatement().execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
    }
}
