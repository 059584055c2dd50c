package io.skippr.sinks.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Rewrites the calls of one SQL function in a statement, for the test doubles that run another
 * database's functions on PostgreSQL (the Redshift twin, the fake BigQuery): each call outside
 * literals and double-quoted names, its arguments split at their top-level commas.
 */
public final class SqlCalls {
    private SqlCalls() {}

    /**
     * {@code sql} with each call of {@code name} replaced by what {@code translation} makes of its
     * arguments (themselves translated first); a call it returns null for is kept.
     */
    public static String replace(
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
                        args.stream().map(a -> replace(a, name, translation).strip()).toList();
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
