package io.skippr.job;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real PostgreSQL that {@code scripts/test} starts ({@code SKIPPR_TEST_PG_*}); a test schema of
 * its own per test. Without the server the tests fail, never skip.
 */
public final class TestPostgres implements AutoCloseable {
    public final String schema;

    TestPostgres() throws SQLException {
        this("skippr_it_");
    }

    /** A new schema named {@code prefix} and a random suffix. */
    public TestPostgres(String prefix) throws SQLException {
        schema = prefix + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 20);
        exec("CREATE SCHEMA \"" + schema + "\"");
    }

    public static String env(String name) {
        return TestEnv.require(name, "the PostgreSQL server that scripts/test starts");
    }

    /** The data source entry for {@code table}, reading the password from ${PG_PASSWORD}. */
    public String sourceYaml(String table, String cursor) {
        return sourceYaml(List.of(table), cursor);
    }

    /** A data source entry reading {@code tables} of the test schema. */
    public String sourceYaml(List<String> tables, String cursor) {
        return connectionYaml()
                + "      schema: "
                + schema
                + "\n      tables: ["
                + String.join(
                        ", ", tables.stream().map(t -> "'" + t.replace("'", "''") + "'").toList())
                + "]\n"
                + (cursor == null ? "" : "      cursor_column: " + cursor + "\n");
    }

    /**
     * A data sink entry writing into {@code sinkSchema}, reading the password from ${PG_PASSWORD}.
     */
    public static String sinkYaml(String sinkSchema) {
        return connectionYaml() + "      schema: " + sinkSchema + "\n";
    }

    private static String connectionYaml() {
        return "    Postgres:\n      host: "
                + env("SKIPPR_TEST_PG_HOST")
                + "\n      port: "
                + env("SKIPPR_TEST_PG_PORT")
                + "\n      user: "
                + env("SKIPPR_TEST_PG_USER")
                + "\n      password: ${PG_PASSWORD}\n      database: "
                + env("SKIPPR_TEST_PG_DATABASE")
                + "\n      sslmode: disable\n";
    }

    public static java.util.Map<String, String> passwordEnv() {
        return java.util.Map.of("PG_PASSWORD", env("SKIPPR_TEST_PG_PASSWORD"));
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(
                url(), env("SKIPPR_TEST_PG_USER"), env("SKIPPR_TEST_PG_PASSWORD"));
    }

    /**
     * A logical replication connection (protocol commands such as {@code DROP_REPLICATION_SLOT ...
     * WAIT}).
     */
    public static Connection replicationConnection() throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", env("SKIPPR_TEST_PG_USER"));
        props.setProperty("password", env("SKIPPR_TEST_PG_PASSWORD"));
        props.setProperty("replication", "database");
        props.setProperty("assumeMinServerVersion", "10");
        props.setProperty("preferQueryMode", "simple");
        return DriverManager.getConnection(url(), props);
    }

    private static String url() {
        return "jdbc:postgresql://"
                + env("SKIPPR_TEST_PG_HOST")
                + ":"
                + env("SKIPPR_TEST_PG_PORT")
                + "/"
                + env("SKIPPR_TEST_PG_DATABASE")
                + "?sslmode=disable";
    }

    public void exec(String... sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO \"" + schema + "\"");
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    /** The first row of {@code sql}, as text. */
    public List<String> one(String sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO \"" + schema + "\"");
            try (ResultSet rs = st.executeQuery(sql)) {
                rs.next();
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                return row;
            }
        }
    }

    @Override
    public void close() throws SQLException {
        exec("DROP SCHEMA \"" + schema + "\" CASCADE");
    }
}
