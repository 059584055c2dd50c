package io.skippr.sources.postgres;

import io.skippr.config.Secret;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The real PostgreSQL the tests run against, from the {@code SKIPPR_TEST_PG_*} variables that
 * {@code scripts/test} exports. Without them the tests fail: they are never skipped.
 */
public final class PgTestDatabase {
    private PgTestDatabase() {}

    public static PostgresConnectionConfig connection() {
        return connectionAs(env("SKIPPR_TEST_PG_USER"), env("SKIPPR_TEST_PG_PASSWORD"));
    }

    /** The test database, logged in as {@code user}. */
    static PostgresConnectionConfig connectionAs(String user, String password) {
        return new PostgresConnectionConfig(
                env("SKIPPR_TEST_PG_HOST"),
                Integer.parseInt(env("SKIPPR_TEST_PG_PORT")),
                env("SKIPPR_TEST_PG_DATABASE"),
                user,
                new Secret(password),
                "disable");
    }

    private static String env(String name) {
        Map<String, String> env = System.getenv();
        String value = env.get(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the Postgres source tests need the PostgreSQL server"
                            + " that scripts/test starts; run them with scripts/test (for example"
                            + " scripts/test -pl sources -am)");
        }
        return value;
    }

    public static Connection open() throws IOException {
        return connection().connect();
    }

    /** Creates a schema named {@code prefix} and a random suffix, and returns its name. */
    public static String createSchema(String prefix) throws Exception {
        String name = prefix + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        exec("CREATE SCHEMA " + Sql.quote(name));
        return name;
    }

    public static void dropSchema(String name) throws Exception {
        if (name != null) {
            exec("DROP SCHEMA IF EXISTS " + Sql.quote(name) + " CASCADE");
        }
    }

    public static void exec(String... statements) throws IOException, SQLException {
        try (Connection c = open();
                Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /** Runs {@code sql} in {@code c}'s transaction. */
    public static void execIn(Connection c, String... statements) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }
}
