package io.skippr.sinks.postgres;

import io.skippr.config.Secret;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real PostgreSQL that {@code scripts/test} starts ({@code SKIPPR_TEST_PG_*}), with a target
 * schema of its own per test, dropped afterwards. Without the server the tests fail, never skip.
 */
final class TestPg implements AutoCloseable {
    final String schema;

    TestPg() {
        this("skippr_sink_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 20));
    }

    TestPg(String schema) {
        this.schema = schema;
    }

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: this test needs the PostgreSQL server that"
                            + " scripts/test starts; run it through scripts/test");
        }
        return value;
    }

    static PostgresDatabase database() {
        return database(env("SKIPPR_TEST_PG_USER"), env("SKIPPR_TEST_PG_PASSWORD"));
    }

    static PostgresDatabase database(String user, String password) {
        return new PostgresDatabase(
                env("SKIPPR_TEST_PG_HOST"),
                Integer.parseInt(env("SKIPPR_TEST_PG_PORT")),
                env("SKIPPR_TEST_PG_DATABASE"),
                user,
                new Secret(password),
                "disable");
    }

    SqlSinkSettings prepare(String pipeline, boolean bounded, WriteMode mode) {
        return SqlSinks.prepare(database(), pipeline, "warehouse", schema, bounded, mode);
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://"
                        + env("SKIPPR_TEST_PG_HOST")
                        + ":"
                        + env("SKIPPR_TEST_PG_PORT")
                        + "/"
                        + env("SKIPPR_TEST_PG_DATABASE")
                        + "?sslmode=disable",
                env("SKIPPR_TEST_PG_USER"),
                env("SKIPPR_TEST_PG_PASSWORD"));
    }

    /** {@code "schema"."table"}. */
    String table(String table) {
        return quote(schema) + "." + quote(table);
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    static void exec(String... sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    /** Every row of {@code sql}, each value as PostgreSQL's text (null for NULL). */
    static List<List<String>> rows(String sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
            try (ResultSet rs = st.executeQuery(sql)) {
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
    }

    /** The first row of {@code sql}. */
    static List<String> one(String sql) throws SQLException {
        List<List<String>> rows = rows(sql);
        if (rows.isEmpty()) {
            throw new AssertionError("no row from " + sql);
        }
        return rows.get(0);
    }

    /** Whether {@code table} exists in this test's schema. */
    boolean exists(String table) throws SQLException {
        return one("SELECT to_regclass('" + table(table).replace("'", "''") + "') IS NOT NULL")
                .get(0)
                .equals("t");
    }

    /** The staging tables left in this test's schema. */
    List<String> staging() throws SQLException {
        return rows(
                        "SELECT tablename FROM pg_tables WHERE schemaname = '"
                                + schema.replace("'", "''")
                                + "' AND tablename LIKE '\\_skippr\\_stage\\_%'")
                .stream()
                .map(r -> r.get(0))
                .toList();
    }

    /**
     * Switches the prepared-transaction fast path off until closed, so bounded append runs stage
     * their rows as on a server with {@code max_prepared_transactions = 0}.
     */
    static AutoCloseable stagingOnly() {
        System.setProperty(PreparedTransactions.SWITCH, "false");
        return () -> System.clearProperty(PreparedTransactions.SWITCH);
    }

    /**
     * The prepared transactions holding locks in this test's schema: those of its own runs, never
     * those of tests running at the same time on the same server.
     */
    List<String> prepared() throws SQLException {
        return rows(
                        "SELECT DISTINCT x.gid FROM pg_prepared_xacts x JOIN pg_locks l ON"
                                + " l.virtualtransaction = (SELECT t.virtualtransaction FROM pg_locks t WHERE t.locktype = 'transactionid' AND t.transactionid = x.transaction AND t.pid IS NULL) JOIN pg_class r"
                                + " ON r.oid = l.relation JOIN pg_namespace n ON n.oid ="
                                + " r.relnamespace WHERE x.database = current_database() AND"
                                + " starts_with(x.gid, 'skippr_') AND n.nspname = '"
                                + schema.replace("'", "''")
                                + "' ORDER BY x.gid")
                .stream()
                .map(r -> r.get(0))
                .toList();
    }

    /**
     * Drops the schema. A prepared transaction left behind would hold its locks (and make the drop
     * wait for ever): it is rolled back, and the test fails.
     */
    @Override
    public void close() throws SQLException {
        List<String> left = prepared();
        for (String gid : left) {
            exec("ROLLBACK PREPARED '" + gid.replace("'", "''") + "'");
        }
        exec("DROP SCHEMA IF EXISTS " + quote(schema) + " CASCADE");
        if (!left.isEmpty()) {
            throw new AssertionError("prepared transactions were left behind: " + left);
        }
    }
}
