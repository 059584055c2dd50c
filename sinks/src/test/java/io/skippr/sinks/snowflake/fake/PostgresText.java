package io.skippr.sinks.snowflake.fake;

import io.skippr.sinks.snowflake.fake.SqlTokens.Token;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Snowflake SQL rewritten for the backing PostgreSQL, token by token: an unquoted identifier
 * becomes the quoted upper-case name Snowflake resolves it to ({@code my_table} is {@code
 * "MY_TABLE"}), a quoted one stays as written; Snowflake's types become PostgreSQL's; string
 * literals are re-quoted without backslash escapes; a three-part name drops the fake's one
 * database. Keywords and the listed functions pass as they are; anything else PostgreSQL then
 * refuses fails the statement.
 */
final class PostgresText {
    /** Words of the statements the fake passes through, left as keywords. */
    private static final Set<String> KEYWORDS =
            Set.of(
                    "SELECT",
                    "FROM",
                    "WHERE",
                    "AND",
                    "OR",
                    "NOT",
                    "NULL",
                    "IS",
                    "IN",
                    "AS",
                    "ON",
                    "JOIN",
                    "LEFT",
                    "RIGHT",
                    "INNER",
                    "OUTER",
                    "FULL",
                    "CROSS",
                    "GROUP",
                    "BY",
                    "ORDER",
                    "ASC",
                    "DESC",
                    "NULLS",
                    "FIRST",
                    "LAST",
                    "LIMIT",
                    "OFFSET",
                    "HAVING",
                    "DISTINCT",
                    "UNION",
                    "ALL",
                    "EXCEPT",
                    "INTERSECT",
                    "INSERT",
                    "INTO",
                    "VALUES",
                    "UPDATE",
                    "SET",
                    "DELETE",
                    "CREATE",
                    "TABLE",
                    "SCHEMA",
                    "IF",
                    "EXISTS",
                    "DROP",
                    "ALTER",
                    "ADD",
                    "COLUMN",
                    "PRIMARY",
                    "KEY",
                    "DEFAULT",
                    "CASE",
                    "WHEN",
                    "THEN",
                    "ELSE",
                    "END",
                    "TRUE",
                    "FALSE",
                    "LIKE",
                    "ILIKE",
                    "BETWEEN",
                    "CAST",
                    "CONSTRAINT",
                    "UNIQUE",
                    "REFERENCES",
                    "FOREIGN",
                    "TEMPORARY",
                    "TEMP",
                    "RENAME",
                    "TO",
                    "CASCADE",
                    "RESTRICT",
                    "TRUNCATE",
                    "WITH",
                    "USING",
                    "MERGE",
                    "MATCHED",
                    "DATA",
                    "TYPE",
                    "OVER",
                    "PARTITION",
                    "ROWS",
                    "ROW",
                    "RANGE",
                    "UNBOUNDED",
                    "PRECEDING",
                    "FOLLOWING",
                    "CURRENT",
                    "INTERVAL",
                    "ESCAPE",
                    "ANY",
                    "SOME",
                    "CURRENT_TIMESTAMP");

    /** Functions passed through, by Snowflake name, as PostgreSQL spells them. */
    private static final Map<String, String> FUNCTIONS =
            Map.ofEntries(
                    Map.entry("COUNT", "count"),
                    Map.entry("SUM", "sum"),
                    Map.entry("MIN", "min"),
                    Map.entry("MAX", "max"),
                    Map.entry("AVG", "avg"),
                    Map.entry("COALESCE", "coalesce"),
                    Map.entry("NULLIF", "nullif"),
                    Map.entry("MD5", "md5"),
                    Map.entry("UPPER", "upper"),
                    Map.entry("LOWER", "lower"),
                    Map.entry("LENGTH", "length"),
                    Map.entry("ABS", "abs"),
                    Map.entry("ROUND", "round"),
                    Map.entry("CONCAT", "concat"),
                    Map.entry("ROW_NUMBER", "row_number"),
                    Map.entry("CURRENT_TIMESTAMP", "current_timestamp"),
                    Map.entry("SYSTEM$WAIT", "pg_sleep"),
                    Map.entry("OCTET_LENGTH", "octet_length"),
                    Map.entry("SUBSTR", "substr"),
                    Map.entry("POSITION", "position"),
                    Map.entry("LTRIM", "ltrim"),
                    Map.entry("RTRIM", "rtrim"),
                    Map.entry("SPLIT_PART", "split_part"),
                    Map.entry("TO_CHAR", "to_char"),
                    Map.entry("DATEDIFF", "\"_fake\".datediff"),
                    Map.entry("DATE_PART", "\"_fake\".date_part"),
                    Map.entry("TO_NUMBER", "\"_fake\".to_number"),
                    Map.entry("HEX_ENCODE", "\"_fake\".hex_encode"),
                    Map.entry("TO_VARCHAR", "\"_fake\".to_varchar"),
                    Map.entry("CONVERT_TIMEZONE", "\"_fake\".convert_timezone"));

    /**
     * Functions whose first argument is a date or time part, a bare word in Snowflake ({@code
     * DATEDIFF(day, …)}), passed to their {@link SnowflakeFunctions} as a string.
     */
    private static final Set<String> PART_FIRST = Set.of("DATEDIFF", "DATE_PART");

    /** Snowflake's types as PostgreSQL types; arguments, where kept, follow as written. */
    private static final Map<String, String> TYPES =
            Map.ofEntries(
                    Map.entry("NUMBER", "numeric"),
                    Map.entry("NUMERIC", "numeric"),
                    Map.entry("DECIMAL", "numeric"),
                    Map.entry("INT", "numeric(38,0)"),
                    Map.entry("INTEGER", "numeric(38,0)"),
                    Map.entry("BIGINT", "numeric(38,0)"),
                    Map.entry("SMALLINT", "numeric(38,0)"),
                    Map.entry("TINYINT", "numeric(38,0)"),
                    Map.entry("BYTEINT", "numeric(38,0)"),
                    Map.entry("FLOAT", "double precision"),
                    Map.entry("FLOAT4", "double precision"),
                    Map.entry("FLOAT8", "double precision"),
                    Map.entry("DOUBLE", "double precision"),
                    Map.entry("REAL", "double precision"),
                    Map.entry("VARCHAR", "varchar"),
                    Map.entry("STRING", "varchar"),
                    Map.entry("TEXT", "varchar"),
                    Map.entry("CHAR", "varchar"),
                    Map.entry("CHARACTER", "varchar"),
                    Map.entry("BOOLEAN", "boolean"),
                    Map.entry("DATE", "date"),
                    Map.entry("TIME", "time"),
                    Map.entry("DATETIME", "timestamp"),
                    Map.entry("TIMESTAMP", "timestamp"),
                    Map.entry("TIMESTAMP_NTZ", "timestamp"),
                    Map.entry("TIMESTAMP_LTZ", "timestamptz"),
                    Map.entry("TIMESTAMP_TZ", "timestamptz"),
                    Map.entry("VARIANT", "jsonb"),
                    Map.entry("OBJECT", "jsonb"),
                    Map.entry("ARRAY", "jsonb"),
                    Map.entry("BINARY", "bytea"),
                    Map.entry("VARBINARY", "bytea"));

    private static final Set<String> TEXT_TYPES =
            Set.of("VARCHAR", "STRING", "TEXT", "CHAR", "CHARACTER");
    private static final Set<String> TIME_TYPES =
            Set.of(
                    "TIME",
                    "DATETIME",
                    "TIMESTAMP",
                    "TIMESTAMP_NTZ",
                    "TIMESTAMP_LTZ",
                    "TIMESTAMP_TZ");
    private static final Set<String> UNSIZED_TYPES =
            Set.of(
                    "INT",
                    "INTEGER",
                    "BIGINT",
                    "SMALLINT",
                    "TINYINT",
                    "BYTEINT",
                    "FLOAT",
                    "FLOAT4",
                    "FLOAT8",
                    "DOUBLE",
                    "REAL",
                    "BOOLEAN",
                    "DATE",
                    "VARIANT",
                    "OBJECT",
                    "ARRAY");

    /** PostgreSQL's longest varchar; Snowflake's default (16,777,216) becomes text. */
    private static final long PG_VARCHAR_MAX = 10_485_760;

    private PostgresText() {}

    /** The statement {@code tokens[from, to)} as PostgreSQL text. */
    static String of(List<Token> tokens, int from, int to, String database) throws SnowflakeError {
        StringBuilder out = new StringBuilder();
        int i = from;
        while (i < to) {
            Token t = tokens.get(i);
            String upper = t.text().toUpperCase(Locale.ROOT);
            Token next = i + 1 < to ? tokens.get(i + 1) : null;
            boolean call = next != null && next.is("(");
            if (t.isIdentifier()
                    && i + 4 < to
                    && tokens.get(i + 1).is(".")
                    && tokens.get(i + 2).isIdentifier()
                    && tokens.get(i + 3).is(".")
                    && tokens.get(i + 4).isIdentifier()
                    && (i == from || !tokens.get(i - 1).is("."))) {
                if (!t.name().equals(database)) {
                    throw SnowflakeError.notFound("Database", t.name());
                }
                i += 2;
                continue;
            }
            switch (t.kind()) {
                case QUOTED -> out.append(SqlTokens.pg(t.text()));
                case STRING -> out.append(SqlTokens.literal(t.text()));
                case NUMBER -> out.append(t.text());
                case SYMBOL -> out.append(t.text());
                case WORD -> {
                    if (call && FUNCTIONS.containsKey(upper)) {
                        out.append(FUNCTIONS.get(upper));
                        if (PART_FIRST.contains(upper)
                                && i + 3 < to
                                && tokens.get(i + 2).kind() == SqlTokens.Kind.WORD
                                && tokens.get(i + 3).is(",")) {
                            out.append("(")
                                    .append(
                                            SqlTokens.literal(
                                                    tokens.get(i + 2)
                                                            .text()
                                                            .toUpperCase(Locale.ROOT)))
                                    .append(" , ");
                            i += 4;
                            continue;
                        }
                    } else if (TYPES.containsKey(upper) && !afterDot(tokens, from, i)) {
                        i = type(tokens, i, to, upper, out);
                        continue;
                    } else if (KEYWORDS.contains(upper)) {
                        out.append(upper);
                    } else {
                        out.append(SqlTokens.pg(upper));
                    }
                }
            }
            out.append(' ');
            i++;
        }
        return out.toString().trim();
    }

    private static boolean afterDot(List<Token> tokens, int from, int i) {
        return i > from && tokens.get(i - 1).is(".");
    }

    /** Writes the type at {@code i} and its arguments; answers the index after them. */
    private static int type(List<Token> tokens, int i, int to, String upper, StringBuilder out)
            throws SnowflakeError {
        String pg = TYPES.get(upper);
        int next = i + 1;
        if (upper.equals("DOUBLE") && next < to && tokens.get(next).is("PRECISION")) {
            next++;
        }
        boolean hasArgs = next < to && tokens.get(next).is("(");
        if (!hasArgs) {
            out.append(pg).append(' ');
            return next;
        }
        int close = next;
        while (close < to && !tokens.get(close).is(")")) {
            close++;
        }
        if (close == to) {
            throw SnowflakeError.compilation("unterminated arguments of type " + upper);
        }
        List<Token> args = tokens.subList(next + 1, close);
        if (UNSIZED_TYPES.contains(upper)) {
            throw SnowflakeError.compilation("type " + upper + " takes no arguments");
        }
        if (TEXT_TYPES.contains(upper) || upper.equals("BINARY") || upper.equals("VARBINARY")) {
            long length = Long.parseLong(args.get(0).text());
            out.append(
                    pg.equals("bytea")
                            ? "bytea"
                            : length > PG_VARCHAR_MAX ? "text" : pg + "(" + length + ")");
        } else if (TIME_TYPES.contains(upper)) {
            // PostgreSQL keeps microseconds: a Snowflake precision of 7 to 9 is rounded to 6
            out.append(pg)
                    .append('(')
                    .append(Math.min(6, Integer.parseInt(args.get(0).text())))
                    .append(')');
        } else {
            out.append(pg).append('(');
            for (Token a : args) {
                out.append(a.text());
            }
            out.append(')');
        }
        out.append(' ');
        return close + 1;
    }
}
