package io.skippr.sinks.redshift;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Redshift functions PostgreSQL lacks, as the twin ({@link RedshiftTwin}) translates them into
 * PostgreSQL expressions of the same result, in the forms Skippr sends (verify's checksums, the
 * loads table's default):
 *
 * <ul>
 *   <li>{@code STRTOL(s, 16)}: the BIGINT of up to 16 hex digits (no sign, no {@code 0x});
 *   <li>{@code DATEDIFF(day, a, b)} of dates and {@code DATEDIFF(microsecond, a, b)} of times or
 *       timestamps: {@code b - a} in those units (at the smallest unit a boundary count is the
 *       difference);
 *   <li>{@code FROM_VARBYTE(v, 'hex')}: PostgreSQL's {@code encode(v, 'hex')}, lower-case hex;
 *   <li>{@code SYSDATE}: the transaction's start in the session's time zone, {@code
 *       LOCALTIMESTAMP}.
 * </ul>
 *
 * Any other form of these functions is left as it is, so PostgreSQL refuses it.
 */
final class RedshiftFunctions {
    private static final Pattern SYSDATE =
            Pattern.compile("(?<![\"\\w])SYSDATE(?![\"\\w])", Pattern.CASE_INSENSITIVE);

    private RedshiftFunctions() {}

    static String translate(String sql) {
        String out = SYSDATE.matcher(sql).replaceAll("LOCALTIMESTAMP");
        out = calls(out, "strtol", RedshiftFunctions::strtol);
        out = calls(out, "datediff", RedshiftFunctions::datediff);
        return calls(out, "from_varbyte", RedshiftFunctions::fromVarbyte);
    }

    private static String strtol(List<String> args) {
        if (args.size() != 2 || !args.get(1).strip().equals("16")) {
            return null;
        }
        return "('x' || lpad(" + args.get(0) + ", 16, '0'))::bit(64)::bigint";
    }

    private static String datediff(List<String> args) {
        if (args.size() != 3) {
            return null;
        }
        String part = args.get(0).strip().toLowerCase(Locale.ROOT);
        String from = args.get(1);
        String to = args.get(2);
        return switch (part) {
            case "day" -> "((" + to + ")::date - (" + from + ")::date)";
            case "microsecond" ->
                    "CAST(extract(epoch FROM ((" + to + ") - (" + from + "))) * 1000000 AS bigint)";
            default -> null;
        };
    }

    private static String fromVarbyte(List<String> args) {
        if (args.size() != 2 || !args.get(1).strip().equalsIgnoreCase("'hex'")) {
            return null;
        }
        return "encode(" + args.get(0) + ", 'hex')";
    }

    /**
     * {@code sql} with each call of {@code name} (outside literals and quoted names) replaced by
     * what {@code translation} makes of its arguments (themselves translated first); a call it
     * returns null for is kept.
     */
    private static String calls(
            String sql, String name, Function<List<String>, String> translation) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = quoted(sql, i);
                out.append(sql, i, end);
                i = end;
                continue;
            }
            if (startsCall(sql, i, name)) {
                int open = sql.indexOf('(', i + name.length());
                List<String> args = new ArrayList<>();
                int close = arguments(sql, open, args);
                List<String> translated =
                        args.stream().map(a -> calls(a, name, translation).strip()).toList();
                String replaced = translation.apply(translated);
                if (replaced != null) {
                    out.append(replaced);
                    i = close + 1;
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    private static boolean startsCall(String sql, int i, String name) {
        if (!sql.regionMatches(true, i, name, 0, name.length())
                || (i > 0 && isWord(sql.charAt(i - 1)))) {
            return false;
        }
        int j = i + name.length();
        while (j < sql.length() && Character.isWhitespace(sql.charAt(j))) {
            j++;
        }
        return j < sql.length() && sql.charAt(j) == '(';
    }

    private static boolean isWord(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.';
    }

    /** The index just past the literal or quoted name opening at {@code i}. */
    private static int quoted(String sql, int i) {
        char q = sql.charAt(i);
        int j = i + 1;
        while (j < sql.length()) {
            if (sql.charAt(j) == q) {
                if (j + 1 < sql.length() && sql.charAt(j + 1) == q) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return sql.length();
    }

    /** The top-level arguments of the parenthesis opening at {@code open}; its closing index. */
    private static int arguments(String sql, int open, List<String> args) {
        int depth = 0;
        int start = open + 1;
        int i = open;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = quoted(sql, i);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0) {
                    args.add(sql.substring(start, i));
                    return i;
                }
            } else if (c == ',' && depth == 1) {
                args.add(sql.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        throw new IllegalArgumentException("unbalanced parentheses in: " + sql);
    }
}
