package io.skippr.sinks.databricks.fake;

import io.skippr.sinks.databricks.fake.SqlTokens.Kind;
import io.skippr.sinks.databricks.fake.SqlTokens.Token;
import io.skippr.sinks.databricks.fake.UnityCatalog.Defaults;
import io.skippr.sinks.databricks.fake.UnityCatalog.Table;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Databricks SQL rewritten for the backing PostgreSQL, token by token. Every identifier, quoted
 * with backticks or not, becomes its lower-case name quoted for PostgreSQL (Databricks resolves
 * names case-insensitively). A table name in table position ({@code FROM}, {@code JOIN}, {@code
 * INTO}, {@code UPDATE}, {@code TABLE}, {@code USING}) is resolved through the {@link UnityCatalog}
 * and must exist. Delta's types become PostgreSQL's, string literals are re-quoted, named parameter
 * markers become bound {@code CAST(? AS type)}s, and {@code range(...)} becomes {@code
 * generate_series}. Keywords and the listed functions pass; any other function, and the Spark
 * clauses listed in {@link #REFUSED}, are refused.
 */
final class PostgresText {
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
                    "WITH",
                    "USING",
                    "MERGE",
                    "MATCHED",
                    "OVER",
                    "PARTITION",
                    "ROWS",
                    "RANGE",
                    "UNBOUNDED",
                    "PRECEDING",
                    "FOLLOWING",
                    "CURRENT",
                    "ROW",
                    "ESCAPE",
                    "ANY",
                    "SOME",
                    "EXISTS",
                    "DEFAULT",
                    "TABLE",
                    "TRUNCATE",
                    "FILTER",
                    "CURRENT_TIMESTAMP",
                    "CURRENT_DATE");

    /** Spark clauses PostgreSQL has no equal for, refused rather than passed on. */
    private static final Set<String> REFUSED =
            Set.of(
                    "QUALIFY",
                    "LATERAL",
                    "SEMI",
                    "ANTI",
                    "PIVOT",
                    "UNPIVOT",
                    "DISTRIBUTE",
                    "SORT",
                    "CLUSTER",
                    "TABLESAMPLE",
                    "INTERVAL",
                    "RLIKE",
                    "REGEXP",
                    "OVERWRITE",
                    "IDENTIFIER");

    /** Functions passed through, by Databricks name, as PostgreSQL spells them. */
    private static final Map<String, String> FUNCTIONS =
            Map.ofEntries(
                    Map.entry("COUNT", "count"),
                    Map.entry("SUM", "sum"),
                    Map.entry("MIN", "min"),
                    Map.entry("MAX", "max"),
                    Map.entry("AVG", "avg"),
                    Map.entry("COALESCE", "coalesce"),
                    Map.entry("IFNULL", "coalesce"),
                    Map.entry("NVL", "coalesce"),
                    Map.entry("NULLIF", "nullif"),
                    Map.entry("GREATEST", "greatest"),
                    Map.entry("LEAST", "least"),
                    Map.entry("UPPER", "upper"),
                    Map.entry("LOWER", "lower"),
                    Map.entry("LENGTH", "length"),
                    Map.entry("TRIM", "trim"),
                    Map.entry("CONCAT", "concat"),
                    Map.entry("SUBSTR", "substr"),
                    Map.entry("SUBSTRING", "substr"),
                    Map.entry("REPLACE", "replace"),
                    Map.entry("MD5", "md5"),
                    Map.entry("ABS", "abs"),
                    Map.entry("ROUND", "round"),
                    Map.entry("FLOOR", "floor"),
                    Map.entry("CEIL", "ceil"),
                    Map.entry("ROW_NUMBER", "row_number"),
                    Map.entry("RANK", "rank"),
                    Map.entry("DENSE_RANK", "dense_rank"),
                    Map.entry("NOW", "now"));

    /** Functions Databricks calls with empty parentheses and PostgreSQL without. */
    private static final Set<String> NILADIC = Set.of("CURRENT_TIMESTAMP", "CURRENT_DATE");

    private static final Set<String> TABLE_POSITION =
            Set.of("FROM", "JOIN", "INTO", "UPDATE", "TABLE", "USING");

    /** A named parameter of the request: its value (null for NULL) and Databricks type. */
    record Parameter(String value, String type) {}

    /** A Delta type as PostgreSQL spells it, and the index after it. */
    record Type(String pg, String delta, int next) {}

    private final Connection pg;
    private final UnityCatalog catalog;
    private final Defaults defaults;
    private final Map<String, Parameter> parameters;
    private final Set<String> ctes = new HashSet<>();

    /** The values of the {@code ?} markers written so far, in order. */
    final List<String> binds = new ArrayList<>();

    /** The tables the text names, for messages. */
    final List<Table> tables = new ArrayList<>();

    PostgresText(
            Connection pg,
            UnityCatalog catalog,
            Defaults defaults,
            Map<String, Parameter> parameters) {
        this.pg = pg;
        this.catalog = catalog;
        this.defaults = defaults;
        this.parameters = parameters;
    }

    /** The whole statement as PostgreSQL text. */
    String of(List<Token> tokens) throws DatabricksError, SQLException {
        collectCtes(tokens);
        return of(tokens, 0, tokens.size());
    }

    /** {@code tokens[from, to)} as PostgreSQL text. */
    String of(List<Token> tokens, int from, int to) throws DatabricksError, SQLException {
        StringBuilder out = new StringBuilder();
        int i = from;
        int castDepth = -1;
        List<Integer> casts = new ArrayList<>();
        int depth = 0;
        int fromListDepth = -1;
        while (i < to) {
            Token t = tokens.get(i);
            String upper = t.text().toUpperCase(Locale.ROOT);
            Token next = i + 1 < to ? tokens.get(i + 1) : null;
            Token previous = i > from ? tokens.get(i - 1) : null;
            if (t.is("(")) {
                depth++;
            } else if (t.is(")")) {
                depth--;
                if (!casts.isEmpty() && casts.get(casts.size() - 1) == depth + 1) {
                    casts.remove(casts.size() - 1);
                }
                if (depth < fromListDepth) {
                    fromListDepth = -1;
                }
            }
            castDepth = casts.isEmpty() ? -1 : casts.get(casts.size() - 1);
            boolean tableComesNext =
                    (t.kind() == Kind.WORD
                                    && TABLE_POSITION.contains(upper)
                                    && !(upper.equals("UPDATE") && previous != null))
                            || (t.is(",") && fromListDepth == depth);
            if (t.kind() == Kind.WORD && (upper.equals("FROM") || upper.equals("JOIN"))) {
                fromListDepth = depth;
            } else if (t.kind() == Kind.WORD
                    && Set.of(
                                    "WHERE",
                                    "GROUP",
                                    "ORDER",
                                    "HAVING",
                                    "LIMIT",
                                    "ON",
                                    "UNION",
                                    "EXCEPT",
                                    "INTERSECT",
                                    "SET",
                                    "WHEN",
                                    "SELECT",
                                    "VALUES")
                            .contains(upper)) {
                if (fromListDepth == depth) {
                    fromListDepth = -1;
                }
            }
            switch (t.kind()) {
                case QUOTED -> out.append(identifier(t.text()));
                case STRING -> out.append(SqlTokens.literal(t.text()));
                case NUMBER -> out.append(t.text());
                case PARAMETER -> out.append(parameter(t.text()));
                case SYMBOL -> out.append(symbol(t.text()));
                case WORD -> {
                    if (REFUSED.contains(upper)) {
                        throw DatabricksError.unsupported(upper);
                    }
                    boolean call = next != null && next.is("(");
                    boolean afterDot = previous != null && previous.is(".");
                    if (previous != null
                            && (previous.is("::") || (previous.is("AS") && castDepth == depth))) {
                        Type type = type(tokens, i, to);
                        out.append(type.pg()).append(' ');
                        i = type.next();
                        continue;
                    } else if (!afterDot
                            && next != null
                            && next.kind() == Kind.STRING
                            && next.start() == t.end()
                            && upper.equals("X")) {
                        if (!next.text().matches("([0-9a-fA-F]{2})*")) {
                            throw new DatabricksError(
                                    "INVALID_FORMAT.BINARY_LITERAL",
                                    "42601",
                                    "The binary literal X'" + next.text() + "' is invalid.");
                        }
                        out.append("'\\x").append(next.text()).append("'::bytea");
                        i += 2;
                        out.append(' ');
                        continue;
                    } else if (!afterDot
                            && next != null
                            && next.kind() == Kind.STRING
                            && Set.of("DATE", "TIMESTAMP", "TIMESTAMP_LTZ", "TIMESTAMP_NTZ")
                                    .contains(upper)) {
                        out.append(type(tokens, i, to).pg()).append(' ');
                    } else if (call && !afterDot && NILADIC.contains(upper)) {
                        int close = i + 2;
                        if (close >= to || !tokens.get(close).is(")")) {
                            throw DatabricksError.syntax("'" + t.text() + "'");
                        }
                        out.append(upper.toLowerCase(Locale.ROOT)).append(' ');
                        i = close + 1;
                        continue;
                    } else if (call && !afterDot && upper.equals("CAST")) {
                        out.append("CAST");
                        casts.add(depth + 1);
                    } else if (call && !afterDot && FUNCTIONS.containsKey(upper)) {
                        out.append(FUNCTIONS.get(upper));
                    } else if (!afterDot
                            && KEYWORDS.contains(upper)
                            && !isTablePart(tokens, i, to)) {
                        out.append(upper);
                    } else if (call && !afterDot && !upper.equals("RANGE")) {
                        throw DatabricksError.unsupported("the function " + t.text());
                    } else {
                        out.append(identifier(t.text()));
                    }
                }
            }
            out.append(' ');
            i++;
            if (tableComesNext && i < to && isTableStart(tokens, i, to)) {
                i = table(tokens, i, to, out);
            }
        }
        return out.toString().trim();
    }

    /** Whether a keyword-like word at {@code i} is the first part of a dotted name. */
    private static boolean isTablePart(List<Token> tokens, int i, int to) {
        return i + 1 < to
                && tokens.get(i + 1).is(".")
                && i + 2 < to
                && tokens.get(i + 2).isIdentifier();
    }

    private static boolean isTableStart(List<Token> tokens, int i, int to) {
        Token t = tokens.get(i);
        if (t.kind() == Kind.QUOTED) {
            return true;
        }
        if (t.kind() != Kind.WORD) {
            return false;
        }
        String upper = t.text().toUpperCase(Locale.ROOT);
        return !KEYWORDS.contains(upper) || isTablePart(tokens, i, to) || upper.equals("RANGE");
    }

    /** Writes the table (or CTE, or range(...)) at {@code i}; answers the index after it. */
    private int table(List<Token> tokens, int i, int to, StringBuilder out)
            throws DatabricksError, SQLException {
        List<String> parts = new ArrayList<>();
        parts.add(tokens.get(i).text());
        int j = i + 1;
        while (j + 1 < to && tokens.get(j).is(".") && tokens.get(j + 1).isIdentifier()) {
            parts.add(tokens.get(j + 1).text());
            j += 2;
        }
        if (parts.size() == 1
                && tokens.get(i).kind() == Kind.WORD
                && UnityCatalog.fold(parts.get(0)).equals("range")
                && j < to
                && tokens.get(j).is("(")) {
            return range(tokens, j, to, out);
        }
        if (parts.size() == 1 && ctes.contains(UnityCatalog.fold(parts.get(0)))) {
            out.append(identifier(parts.get(0))).append(' ');
            return j;
        }
        if (parts.stream().anyMatch(p -> UnityCatalog.fold(p).equals("information_schema"))) {
            throw DatabricksError.unsupported("information_schema");
        }
        Table table = catalog.table(pg, parts, defaults);
        if (!UnityCatalog.tableExists(pg, table)) {
            throw DatabricksError.tableNotFound(table.display());
        }
        tables.add(table);
        out.append(table.pg()).append(' ');
        return j;
    }

    /** {@code range(end)} or {@code range(start, end)}: a table of one BIGINT column {@code id}. */
    private int range(List<Token> tokens, int open, int to, StringBuilder out)
            throws DatabricksError, SQLException {
        int depth = 0;
        int close = open;
        List<Integer> commas = new ArrayList<>();
        for (; close < to; close++) {
            Token t = tokens.get(close);
            if (t.is("(")) {
                depth++;
            } else if (t.is(")") && --depth == 0) {
                break;
            } else if (t.is(",") && depth == 1) {
                commas.add(close);
            }
        }
        if (close == to || commas.size() > 1) {
            throw DatabricksError.unsupported("range(...) with a step or partitions");
        }
        String start = commas.isEmpty() ? "0" : of(tokens, open + 1, commas.get(0));
        String end = of(tokens, commas.isEmpty() ? open + 1 : commas.get(0) + 1, close);
        out.append("(SELECT generate_series(CAST(")
                .append(start)
                .append(" AS bigint), CAST(")
                .append(end)
                .append(" AS bigint) - 1) AS \"id\")");
        int next = close + 1;
        boolean aliased =
                next < to
                        && (tokens.get(next).is("AS")
                                || tokens.get(next).kind() == Kind.QUOTED
                                || (tokens.get(next).kind() == Kind.WORD
                                        && !KEYWORDS.contains(
                                                tokens.get(next).text().toUpperCase(Locale.ROOT))));
        out.append(aliased ? " " : " AS \"range\" ");
        return next;
    }

    private void collectCtes(List<Token> tokens) throws DatabricksError {
        if (tokens.isEmpty() || !tokens.get(0).is("WITH")) {
            return;
        }
        int i = 1;
        if (i < tokens.size() && tokens.get(i).is("RECURSIVE")) {
            throw DatabricksError.unsupported("WITH RECURSIVE");
        }
        while (i < tokens.size() && tokens.get(i).isIdentifier()) {
            ctes.add(UnityCatalog.fold(tokens.get(i).text()));
            int depth = 0;
            i++;
            while (i < tokens.size()) {
                Token t = tokens.get(i);
                if (t.is("(")) {
                    depth++;
                } else if (t.is(")")) {
                    depth--;
                } else if (depth == 0 && (t.is(",") || t.is("SELECT") || t.is("INSERT"))) {
                    break;
                }
                i++;
            }
            if (i < tokens.size() && tokens.get(i).is(",")) {
                i++;
            } else {
                break;
            }
        }
    }

    private static String identifier(String name) throws DatabricksError {
        String folded = UnityCatalog.fold(name);
        UnityCatalog.checkLength(folded);
        return SqlTokens.quote(UnityCatalog.standIn(folded));
    }

    private static String symbol(String s) {
        return switch (s) {
            case "==" -> "=";
            case "!=" -> "<>";
            case "<=>" -> "IS NOT DISTINCT FROM";
            default -> s;
        };
    }

    private String parameter(String name) throws DatabricksError {
        Parameter p = parameters.get(name);
        if (p == null) {
            throw DatabricksError.unboundParameter(name);
        }
        String pgType = "text";
        if (p.type() != null && !p.type().isBlank()) {
            List<Token> typeTokens = SqlTokens.of(p.type());
            Type type = type(typeTokens, 0, typeTokens.size());
            if (type.next() != typeTokens.size()) {
                throw DatabricksError.syntax("'" + p.type() + "'");
            }
            pgType = type.pg();
        }
        binds.add(p.value());
        return "CAST(? AS " + pgType + ")";
    }

    /** The Delta type at {@code i}, with its arguments. */
    static Type type(List<Token> tokens, int i, int to) throws DatabricksError {
        Token t = tokens.get(i);
        String upper = t.text().toUpperCase(Locale.ROOT);
        int next = i + 1;
        List<String> args = new ArrayList<>();
        if (next < to && tokens.get(next).is("(")) {
            int close = next + 1;
            while (close < to && !tokens.get(close).is(")")) {
                if (tokens.get(close).kind() == Kind.NUMBER) {
                    args.add(tokens.get(close).text());
                } else if (!tokens.get(close).is(",")) {
                    throw DatabricksError.syntax("'" + tokens.get(close).text() + "'");
                }
                close++;
            }
            next = close + 1;
        }
        String pgType =
                switch (upper) {
                    case "STRING" -> "text";
                    case "VARCHAR", "CHAR" -> {
                        if (args.size() != 1) {
                            throw DatabricksError.syntax("'" + t.text() + "'");
                        }
                        yield upper.toLowerCase(Locale.ROOT) + "(" + args.get(0) + ")";
                    }
                    case "BIGINT", "LONG" -> "bigint";
                    case "INT", "INTEGER" -> "integer";
                    case "SMALLINT", "SHORT", "TINYINT", "BYTE" -> "smallint";
                    case "DOUBLE" -> "double precision";
                    case "FLOAT", "REAL" -> "real";
                    case "DECIMAL", "DEC", "NUMERIC" -> {
                        int precision = args.isEmpty() ? 10 : Integer.parseInt(args.get(0));
                        int scale = args.size() < 2 ? 0 : Integer.parseInt(args.get(1));
                        if (precision > 38) {
                            throw new DatabricksError(
                                    "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION",
                                    "22003",
                                    "Decimal precision "
                                            + precision
                                            + " exceeds max precision 38.");
                        }
                        yield "numeric(" + precision + "," + scale + ")";
                    }
                    case "BOOLEAN" -> "boolean";
                    case "DATE" -> "date";
                    case "TIMESTAMP", "TIMESTAMP_LTZ" -> "timestamptz";
                    case "TIMESTAMP_NTZ" -> "timestamp";
                    case "BINARY" -> "bytea";
                    default -> throw DatabricksError.unsupported("the data type " + t.text());
                };
        boolean sized = Set.of("VARCHAR", "CHAR", "DECIMAL", "DEC", "NUMERIC").contains(upper);
        if (!args.isEmpty() && !sized) {
            throw DatabricksError.syntax("'('");
        }
        return new Type(pgType, upper, next);
    }
}
