package io.skippr.sinks.bigquery.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GoogleSQL text as PostgreSQL runs it: backticked names become double-quoted (under {@link
 * Names#standIn} when longer than PostgreSQL keeps), string literals are decoded from GoogleSQL's
 * backslash escapes, {@code @name} parameters become {@code ?} in order, and type names become
 * PostgreSQL's ({@code INT64} bigint, {@code STRING} text, {@code FLOAT64} double precision, {@code
 * BOOL} boolean, {@code BYTES} bytea, {@code NUMERIC} numeric(38,9), {@code BIGNUMERIC} numeric,
 * {@code DATETIME} timestamp, {@code TIMESTAMP} timestamptz, {@code JSON} jsonb). {@code CREATE OR
 * REPLACE TABLE t AS q} becomes a drop and a create. Only the statements in {@link #ALLOWED} are
 * run; anything else is refused.
 */
final class GoogleSql {
    /** The statements the fake runs, by their first words. */
    static final List<String> ALLOWED =
            List.of(
                    "SELECT",
                    "WITH",
                    "INSERT INTO",
                    "MERGE INTO",
                    "DELETE FROM",
                    "UPDATE",
                    "CREATE TABLE",
                    "CREATE OR REPLACE TABLE",
                    "CREATE SCHEMA",
                    "ALTER TABLE",
                    "DROP TABLE");

    private static final Map<String, String> TYPES =
            Map.of(
                    "INT64", "bigint",
                    "STRING", "text",
                    "FLOAT64", "double precision",
                    "BOOL", "boolean",
                    "BYTES", "bytea",
                    "DATETIME", "timestamp",
                    "TIMESTAMP", "timestamptz",
                    "JSON", "jsonb");

    private static final Set<String> DECIMALS = Set.of("NUMERIC", "BIGNUMERIC", "BIGDECIMAL");

    private static final Pattern REPLACE =
            Pattern.compile(
                    "^\\s*CREATE\\s+OR\\s+REPLACE\\s+TABLE\\s+(\"(?:[^\"]|\"\")*\"\\.\"(?:[^\"]|\"\")*\")\\s+AS\\s+(.*)$",
                    Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    /** The PostgreSQL statements of one query, and its parameter names in order. */
    record Translated(List<String> statements, List<String> parameters) {}

    private GoogleSql() {}

    /**
     * Refuses a name with a character no BigQuery name takes (the fake checks the ASCII ones that
     * its flexible column names refuse and table names refuse too: {@code " ! $ ( ) * , . / ; ? @ [
     * \ ] ^ ` { } ~}), as BigQuery refuses it.
     */
    static void checkName(String name) throws BigQueryError {
        for (int i = 0; i < name.length(); i++) {
            if ("\"!$()*,./;?@[\\]^`{}~".indexOf(name.charAt(i)) >= 0) {
                throw BigQueryError.invalidQuery(
                        "Invalid field name \""
                                + name
                                + "\". Fields must contain the allowed characters, and be at most"
                                + " 300 characters long.");
            }
        }
    }

    static Translated translate(String sql) throws BigQueryError {
        String head = sql.stripLeading().replaceAll("\\s+", " ").toUpperCase(Locale.ROOT);
        if (ALLOWED.stream().noneMatch(head::startsWith)) {
            throw BigQueryError.invalidQuery(
                    "The fake BigQuery does not implement this statement: "
                            + head.substring(0, Math.min(40, head.length())));
        }
        List<String> parameters = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        boolean where = false;
        int n = sql.length();
        for (int i = 0; i < n; ) {
            char ch = sql.charAt(i);
            if (ch == '`') {
                StringBuilder name = new StringBuilder();
                int j = i + 1;
                while (j < n && sql.charAt(j) != '`') {
                    if (sql.charAt(j) == '\\' && j + 1 < n) {
                        j++;
                    }
                    name.append(sql.charAt(j));
                    j++;
                }
                if (j >= n) {
                    throw BigQueryError.invalidQuery("Syntax error: Unclosed identifier literal");
                }
                checkName(name.toString());
                out.append(Names.pgIdentifier(name.toString()));
                i = j + 1;
            } else if (ch == '\'' || ch == '"') {
                StringBuilder text = new StringBuilder();
                int j = i + 1;
                while (j < n && sql.charAt(j) != ch) {
                    char c = sql.charAt(j);
                    if (c == '\\' && j + 1 < n) {
                        char e = sql.charAt(++j);
                        text.append(
                                switch (e) {
                                    case 'n' -> '\n';
                                    case 'r' -> '\r';
                                    case 't' -> '\t';
                                    default -> e;
                                });
                    } else if (c == '\n') {
                        throw BigQueryError.invalidQuery(
                                "Syntax error: Unclosed string literal (a newline in a quoted"
                                        + " string)");
                    } else {
                        text.append(c);
                    }
                    j++;
                }
                if (j >= n) {
                    throw BigQueryError.invalidQuery("Syntax error: Unclosed string literal");
                }
                out.append('\'').append(text.toString().replace("'", "''")).append('\'');
                i = j + 1;
            } else if (ch == '@' && i + 1 < n && Character.isLetter(sql.charAt(i + 1))) {
                int j = i + 1;
                while (j < n
                        && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
                    j++;
                }
                parameters.add(sql.substring(i + 1, j));
                out.append('?');
                i = j;
            } else if (Character.isLetter(ch) || ch == '_') {
                int j = i;
                while (j < n
                        && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
                    j++;
                }
                String word = sql.substring(i, j);
                String upper = word.toUpperCase(Locale.ROOT);
                int k = j;
                while (k < n && sql.charAt(k) == ' ') {
                    k++;
                }
                boolean parameterised = k < n && sql.charAt(k) == '(';
                if (upper.equals("WHERE")) {
                    where = true;
                }
                if (TYPES.containsKey(upper)) {
                    out.append(TYPES.get(upper));
                } else if (DECIMALS.contains(upper)) {
                    out.append(
                            parameterised
                                    ? "numeric"
                                    : upper.equals("NUMERIC") ? "numeric(38,9)" : "numeric");
                } else {
                    out.append(word);
                }
                i = j;
            } else {
                out.append(ch);
                i++;
            }
        }
        if ((head.startsWith("DELETE") || head.startsWith("UPDATE")) && !where) {
            throw BigQueryError.invalidQuery(
                    (head.startsWith("DELETE") ? "DELETE" : "UPDATE")
                            + " must have a WHERE clause");
        }
        String pg = GoogleSqlFunctions.translate(out.toString());
        Matcher m = REPLACE.matcher(pg);
        if (m.matches()) {
            return new Translated(
                    List.of(
                            "DROP TABLE IF EXISTS " + m.group(1),
                            "CREATE TABLE " + m.group(1) + " AS " + m.group(2)),
                    parameters);
        }
        return new Translated(List.of(pg), parameters);
    }
}
