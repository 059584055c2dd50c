package io.skippr.sources.postgres;

/** SQL text helpers: every identifier Skippr puts into SQL goes through {@link #quote}. */
final class Sql {
    private Sql() {}

    /**
     * A double-quoted identifier with inner quotes doubled: safe for any name PostgreSQL allows.
     */
    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** {@code "schema"."table"}. */
    static String table(String schema, String table) {
        return quote(schema) + "." + quote(table);
    }

    /** A name as messages show it: double-quoted like SQL, so spaces and case are visible. */
    static String show(String identifier) {
        return quote(identifier);
    }

    /** A string literal with inner quotes doubled. */
    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
