package io.skippr.conformance;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** The kit's source: tables in a schema of their own on the real PostgreSQL. */
final class SourceTable implements AutoCloseable {
    private final String schema =
            "skippr_kit_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 20);

    SourceTable() throws SQLException {
        exec("CREATE SCHEMA \"" + schema + "\"");
    }

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the sink conformance kit reads from the"
                            + " PostgreSQL server that scripts/test starts; run it through scripts/test");
        }
        return value;
    }

    Map<String, String> env() {
        return Map.of("KIT_PG_PASSWORD", env("SKIPPR_TEST_PG_PASSWORD"));
    }

    String yaml(String table, String cursor) {
        return "    Postgres:\n      host: "
                + env("SKIPPR_TEST_PG_HOST")
                + "\n      port: "
                + env("SKIPPR_TEST_PG_PORT")
                + "\n      user: "
                + env("SKIPPR_TEST_PG_USER")
                + "\n      password: ${KIT_PG_PASSWORD}\n      database: "
                + env("SKIPPR_TEST_PG_DATABASE")
                + "\n      schema: "
                + schema
                + "\n      tables: ['"
                + table.replace("'", "''")
                + "']\n      sslmode: disable\n"
                + (cursor == null ? "" : "      cursor_column: " + cursor + "\n");
    }

    /** Rows {@code from..to-1} of an orders table: amount is id * 1.25. */
    void orders(String table, long from, long to) throws SQLException {
        String t = quote(table);
        exec(
                "CREATE TABLE IF NOT EXISTS "
                        + t
                        + " (id bigint PRIMARY KEY, customer_id int,"
                        + " amount numeric(12,2), status text, updated_at timestamptz NOT NULL)",
                "INSERT INTO "
                        + t
                        + " SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                        + " '2026-11-01 00:00:00Z' + i * interval '1 second' FROM"
                        + " generate_series("
                        + from
                        + ", "
                        + (to - 1)
                        + ") i");
    }

    static BigDecimal amountSum(long from, long to) {
        long ids = (to - 1) * to / 2 - (from - 1) * from / 2;
        return new BigDecimal("1.25").multiply(BigDecimal.valueOf(ids));
    }

    /** Adds a column and rows that use it, with cursor values after every earlier row. */
    void addNoteColumn(String table, long from, long to) throws SQLException {
        String t = quote(table);
        exec(
                "ALTER TABLE " + t + " ADD COLUMN note text",
                "INSERT INTO "
                        + t
                        + " SELECT i, i % 97, i * 1.25, 'new', timestamptz"
                        + " '2026-11-05 00:00:00Z' + i * interval '1 second', 'note ' || i FROM"
                        + " generate_series("
                        + from
                        + ", "
                        + (to - 1)
                        + ") i");
    }

    /** Sets one row's cursor timestamp to PostgreSQL's largest, beyond Parquet's range. */
    void extremeTimestamp(String table, long id) throws SQLException {
        exec(
                "UPDATE "
                        + quote(table)
                        + " SET updated_at = timestamptz '294276-12-31"
                        + " 23:59:59Z' WHERE id = "
                        + id);
    }

    /** A table whose name and columns need quoting everywhere. */
    void hostile(String table, long from, long to) throws SQLException {
        String t = quote(table);
        exec(
                "CREATE TABLE "
                        + t
                        + " (id bigint PRIMARY KEY, \"select\" text, \"two words\" int,"
                        + " \"naïve \"\"q\"\"\" text, amount numeric(12,2))",
                "INSERT INTO "
                        + t
                        + " SELECT i, 'from', i, 'ü''\"', i * 1.25 FROM"
                        + " generate_series("
                        + from
                        + ", "
                        + (to - 1)
                        + ") i");
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private Connection connect() throws SQLException {
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

    private void exec(String... sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("SET search_path TO \"" + schema + "\"");
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        exec("DROP SCHEMA \"" + schema + "\" CASCADE");
    }
}
