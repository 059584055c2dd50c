package io.skippr.sinks.clickhouse;

/**
 * Quoting for ClickHouse SQL and its TabSeparated format. Identifiers are always back-quoted with
 * backslash escapes, so hostile names (quotes, backticks, spaces, reserved words, unicode) are
 * names, never SQL.
 */
final class ClickHouseSql {
    private ClickHouseSql() {}

    /** {@code name} as a back-quoted identifier. */
    static String quote(String name) {
        return '`' + escape(name, '`') + '`';
    }

    /** {@code database.table}, both quoted. */
    static String table(String database, String table) {
        return quote(database) + "." + quote(table);
    }

    /** {@code text} as a single-quoted string literal. */
    static String literal(String text) {
        return '\'' + escape(text, '\'') + '\'';
    }

    private static String escape(String s, char quote) {
        StringBuilder out = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\0' -> out.append("\\0");
                default -> {
                    if (c == quote) {
                        out.append('\\');
                    }
                    out.append(c);
                }
            }
        }
        return out.toString();
    }

    /** A TabSeparated field as the server writes it, back to its text. */
    static String unescapeField(String field) {
        if (field.indexOf('\\') < 0) {
            return field;
        }
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c != '\\' || i + 1 == field.length()) {
                out.append(c);
                continue;
            }
            char next = field.charAt(++i);
            out.append(
                    switch (next) {
                        case 'n' -> '\n';
                        case 't' -> '\t';
                        case 'r' -> '\r';
                        case '0' -> '\0';
                        case 'b' -> '\b';
                        case 'f' -> '\f';
                        default -> next;
                    });
        }
        return out.toString();
    }
}
