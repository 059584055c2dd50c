package io.skippr.sinks.snowflake.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Snowflake SQL split into tokens: words, quoted identifiers, string literals (Snowflake's, with
 * backslash escapes and {@code $$...$$}), numbers and symbols; whitespace and comments are dropped.
 */
final class SqlTokens {
    enum Kind {
        WORD,
        QUOTED,
        STRING,
        NUMBER,
        SYMBOL
    }

    /** One token; {@code text} is the identifier's name (unquoted) or the literal's value. */
    record Token(Kind kind, String text, int start, int end) {
        boolean is(String word) {
            return (kind == Kind.WORD || kind == Kind.SYMBOL) && text.equalsIgnoreCase(word);
        }

        boolean isIdentifier() {
            return kind == Kind.WORD || kind == Kind.QUOTED;
        }

        /**
         * The name Snowflake resolves: an unquoted word folds to upper case, a quoted one does not.
         */
        String name() {
            return kind == Kind.WORD ? text.toUpperCase(Locale.ROOT) : text;
        }
    }

    private SqlTokens() {}

    static List<Token> of(String sql) throws SnowflakeError {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (sql.startsWith("--", i) || sql.startsWith("//", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                if (end < 0) {
                    throw SnowflakeError.compilation("unterminated comment");
                }
                i = end + 2;
            } else if (c == '\'') {
                int start = i;
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw SnowflakeError.compilation("unterminated string literal");
                    }
                    char d = sql.charAt(i);
                    if (d == '\'' && i + 1 < n && sql.charAt(i + 1) == '\'') {
                        value.append('\'');
                        i += 2;
                    } else if (d == '\'') {
                        i++;
                        break;
                    } else if (d == '\\' && i + 1 < n) {
                        value.append(unescape(sql.charAt(i + 1)));
                        i += 2;
                    } else {
                        value.append(d);
                        i++;
                    }
                }
                tokens.add(new Token(Kind.STRING, value.toString(), start, i));
            } else if (sql.startsWith("$$", i)) {
                int end = sql.indexOf("$$", i + 2);
                if (end < 0) {
                    throw SnowflakeError.compilation("unterminated $$ string");
                }
                tokens.add(new Token(Kind.STRING, sql.substring(i + 2, end), i, end + 2));
                i = end + 2;
            } else if (c == '"') {
                int start = i;
                StringBuilder name = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw SnowflakeError.compilation("unterminated quoted identifier");
                    }
                    char d = sql.charAt(i);
                    if (d == '"' && i + 1 < n && sql.charAt(i + 1) == '"') {
                        name.append('"');
                        i += 2;
                    } else if (d == '"') {
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
                        && (Character.isLetterOrDigit(sql.charAt(i))
                                || sql.charAt(i) == '_'
                                || sql.charAt(i) == '$')) {
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
                tokens.add(new Token(Kind.NUMBER, sql.substring(start, i), start, i));
            } else {
                String two = i + 1 < n ? sql.substring(i, i + 2) : "";
                if (two.equals("::")
                        || two.equals("<=")
                        || two.equals(">=")
                        || two.equals("<>")
                        || two.equals("!=")
                        || two.equals("||")) {
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

    private static char unescape(char c) {
        return switch (c) {
            case 'n' -> '\n';
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case '0' -> '\0';
            default -> c;
        };
    }

    /** {@code "name"}, as PostgreSQL and Snowflake both quote. */
    static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** {@code name} quoted as the backing PostgreSQL stores it ({@link BackingNames}). */
    static String pg(String name) {
        return quote(BackingNames.standIn(name));
    }

    /** A standard SQL string literal for PostgreSQL. */
    static String literal(String value) {
        if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("NUL in a literal");
        }
        return "'" + value.replace("'", "''") + "'";
    }
}
