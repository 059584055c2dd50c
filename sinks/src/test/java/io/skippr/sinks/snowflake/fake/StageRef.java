package io.skippr.sinks.snowflake.fake;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A stage as a statement names it: {@code @~} (the user's stage), {@code @%table} (a table's stage)
 * or {@code @name} (a named internal stage), with an optional schema (and database) and a path
 * ({@code @%"t"/sub/}). Unquoted parts fold to upper case.
 */
record StageRef(Kind kind, List<String> name, String path, int end) {
    enum Kind {
        USER,
        TABLE,
        NAMED
    }

    /** The reference starting at {@code text[start]}, which is {@code @}. */
    static StageRef parse(String text, int start) throws SnowflakeError {
        if (start >= text.length() || text.charAt(start) != '@') {
            throw SnowflakeError.compilation("a stage reference starts with @");
        }
        int i = start + 1;
        Kind kind;
        List<String> name = new ArrayList<>();
        if (i < text.length() && text.charAt(i) == '~') {
            kind = Kind.USER;
            i++;
        } else {
            kind = Kind.NAMED;
            if (i < text.length() && text.charAt(i) == '%') {
                kind = Kind.TABLE;
                i++;
            }
            while (true) {
                if (i < text.length() && text.charAt(i) == '"') {
                    StringBuilder part = new StringBuilder();
                    i++;
                    while (true) {
                        if (i >= text.length()) {
                            throw SnowflakeError.compilation("unterminated quoted stage name");
                        }
                        if (text.charAt(i) == '"'
                                && i + 1 < text.length()
                                && text.charAt(i + 1) == '"') {
                            part.append('"');
                            i += 2;
                        } else if (text.charAt(i) == '"') {
                            i++;
                            break;
                        } else {
                            part.append(text.charAt(i++));
                        }
                    }
                    name.add(part.toString());
                } else {
                    int from = i;
                    while (i < text.length()
                            && (Character.isLetterOrDigit(text.charAt(i))
                                    || text.charAt(i) == '_'
                                    || text.charAt(i) == '$')) {
                        i++;
                    }
                    if (i == from) {
                        throw SnowflakeError.compilation("a stage name is missing after @");
                    }
                    name.add(text.substring(from, i).toUpperCase(Locale.ROOT));
                }
                if (i < text.length() && text.charAt(i) == '.') {
                    i++;
                } else {
                    break;
                }
            }
            if (name.size() > 3) {
                throw SnowflakeError.compilation("a stage name has at most three parts");
            }
        }
        int from = i;
        while (i < text.length() && !delimits(text.charAt(i))) {
            i++;
        }
        String path = text.substring(from, i);
        if (!path.isEmpty() && !path.startsWith("/")) {
            throw SnowflakeError.compilation("unexpected '" + path + "' after the stage name");
        }
        while (path.startsWith("/")) {
            path = path.substring(1);
        }
        return new StageRef(kind, List.copyOf(name), path, i);
    }

    private static boolean delimits(char c) {
        return Character.isWhitespace(c) || c == ')' || c == ';' || c == ',' || c == '\'';
    }
}
