package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.core.naming.Names;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/** The PostgreSQL sink, loading a schema of its own on the test server. */
final class PostgresFixture implements SinkFixture {
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

    private static Connection connect() throws SQLException {
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

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws SQLException {
        try (Connection c = connect();
                ResultSet rs =
                        c.createStatement()
                                .executeQuery(
                                        "SELECT * FROM \""
                                                + schema
                                                + "\".\""
                                                + Names.snake(stream)
                                                + "\"")) {
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
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public Set<String> writeModes() {
        return Set.of("append", "merge", "replace");
    }

    @Override
    public void close() throws SQLException {
        try (Connection c = connect()) {
            c.createStatement().execute("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE");
        }
    }
}
