package io.skippr.sinks.databricks.fake;

import java.util.ArrayList;
import java.util.List;

/**
 * Databricks SQL split into tokens as Spark's parser reads it: words, backtick-quoted identifiers
 * ({@code `a``b`} is {@code a`b}), string literals in single or double quotes with backslash
 * escapes (adjacent literals are one literal: {@code 'It''s'} is {@code Its}), numbers, named
 * parameter markers ({@code :name}) and symbols; whitespace and comments are dropped.
 */
final class SqlTokens {
    enum Kind {
        WORD,
        QUOTED,
        STRING,
        NUMBER,
        PARAMETER,
        SYMBOL
    }

    /**
     * One token; {@code text} is the identifier's name (unquoted), a literal's value or a symbol.
     */
    record Token(Kind kind, String text, int start, int end) {
        boolean is(String word) {
            return (kind == Kind.WORD || kind == Kind.SYMBOL) && text.equalsIgnoreCase(word);
        }

        boolean isIdentifier() {
            return kind == Kind.WORD || kind == Kind.QUOTED;
        }
    }

    private SqlTokens() {}

    static List<Token> of(String sql) throws DatabricksError {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new DatabricksError(
                            "UNCLOSED_BRACKETED_COMMENT",
                            "42601",
                            "Found an unclosed bracketed comment. Please, append */ at the end of"
                                    + " the comment.");
                }
                i = end + 2;
            } else if (c == '\'' || c == '"') {
                int start = i;
                StringBuilder value = new StringBuilder();
                i = string(sql, i, value);
                Token previous = tokens.isEmpty() ? null : tokens.get(tokens.size() - 1);
                if (previous != null && previous.kind() == Kind.STRING) {
                    // Spark reads adjacent string literals as one
                    tokens.set(
                            tokens.size() - 1,
                            new Token(Kind.STRING, previous.text() + value, previous.start(), i));
                } else {
                    tokens.add(new Token(Kind.STRING, value.toString(), start, i));
                }
            } else if (c == '`') {
                int start = i;
                StringBuilder name = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw DatabricksError.syntax("end of input");
                    }
                    char d = sql.charAt(i);
                    if (d == '`' && i + 1 < n && sql.charAt(i + 1) == '`') {
                        name.append('`');
                        i += 2;
                    } else if (d == '`') {
                        i++;
                        break;
                    } else {
                        name.append(d);
                        i++;
                    }
                }
                tokens.add(new Token(Kind.QUOTED, name.toString(), start, i));
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, sql.substring(start, i), start, i));
            } else if (Character.isDigit(c)
                    || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                int start = i;
                while (i < n
                        && (Character.isDigit(sql.charAt(i))
                                || sql.charAt(i) == '.'
                                || ((sql.charAt(i) == 'e' || sql.charAt(i) == 'E')
                                        && i + 1 < n
                                        && (Character.isDigit(sql.charAt(i + 1))
                                                || sql.charAt(i + 1) == '-'
                                                || sql.charAt(i + 1) == '+'))
                                || ((sql.charAt(i) == '-' || sql.charAt(i) == '+')
                                        && (sql.charAt(i - 1) == 'e'
                                                || sql.charAt(i - 1) == 'E')))) {
                    i++;
                }
                if (i < n && Character.isLetter(sql.charAt(i))) {
                    throw DatabricksError.unsupported(
                            "numeric literal with a type suffix ("
                                    + sql.substring(start, Math.min(n, i + 2))
                                    + ")");
                }
                tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start, i));
            } else if (c == ':'
                    && i + 1 < n
                    && (Character.isLetter(sql.charAt(i + 1)) || sql.charAt(i + 1) == '_')
                    && (i == 0 || sql.charAt(i - 1) != ':')) {
                int start = i;
                i++;
                while (i < n
                        && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_')) {
                    i++;
                }
                tokens.add(new Token(Kind.PARAMETER, sql.substring(start + 1, i), start, i));
            } else {
                String two = i + 1 < n ? sql.substring(i, i + 2) : "";
                if (List.of("::", "<=", ">=", "<>", "!=", "||", "==", "<=>").contains(two)) {
                    tokens.add(new Token(Kind.SYMBOL, two, i, i + 2));
                    i += 2;
                } else {
                    tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
                    i++;
                }
            }
        }
        return tokens;
    }

    /** Reads the literal at {@code i} into {@code value}; answers the index after it. */
    private static int string(String sql, int i, StringBuilder value) throws DatabricksError {
        char quote = sql.charAt(i);
        int n = sql.length();
        i++;
        while (true) {
            if (i >= n) {
                throw DatabricksError.syntax("end of input");
            }
            char d = sql.charAt(i);
            if (d == quote) {
                return i + 1;
            }
            if (d == '\\' && i + 1 < n) {
                char e = sql.charAt(i + 1);
                if (e == 'u' && i + 5 < n) {
                    value.append((char) Integer.parseInt(sql.substring(i + 2, i + 6), 16));
                    i += 6;
                    continue;
                }
                value.append(unescape(e));
                i += 2;
            } else {
                value.append(d);
                i++;
            }
        }
    }

    private static char unescape(char c) {
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case '0' -> '\0';
            case 'Z' -> '\u001A';
            default -> c;
        };
    }

    /** {@code "name"}, as PostgreSQL quotes. */
    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** A standard SQL string literal for PostgreSQL. */
    static String literal(String value) throws DatabricksError {
        if (value.indexOf('\0') >= 0) {
            throw DatabricksError.unsupported("a NUL character in a string literal");
        }
        return "'" + value.replace("'", "''") + "'";
    }
}
