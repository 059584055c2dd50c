package io.skippr.sinks.redshift;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The names the Redshift twin stores under another name: Redshift keeps 127 bytes of a name, the
 * twin's PostgreSQL 63, so a name over 63 bytes is stored in PostgreSQL as its first bytes (at most
 * 50), {@code _} and 12 hex digits of the SHA-256 of the whole name, and the twin maps it both
 * ways: in the statements it forwards (quoted and unquoted names, and, in catalog queries, string
 * literals and text parameters), and in what it returns (column labels, row values, messages).
 *
 * <p>The mapping is deterministic and kept for the whole JVM, so a name stored through one twin
 * reads back whole through another.
 */
final class TwinNames {
    /** PostgreSQL's NAMEDATALEN - 1. */
    static final int POSTGRES_BYTES = 63;

    private static final int PREFIX_BYTES = 50;

    private static final Map<String, String> SHORT = new ConcurrentHashMap<>();
    private static final Map<String, String> LONG = new ConcurrentHashMap<>();

    /** A statement that reads the catalog, whose literals and parameters name objects. */
    private static final Pattern CATALOG =
            Pattern.compile(
                    "\\b(information_schema|pg_catalog|pg_\\w+|svv_\\w+|svl_\\w+|stv_\\w+)\\b",
                    Pattern.CASE_INSENSITIVE);

    private TwinNames() {}

    static boolean isLong(String name) {
        return name.getBytes(StandardCharsets.UTF_8).length > POSTGRES_BYTES;
    }

    /** The name PostgreSQL stores {@code name} under: itself, or its 63-byte stand-in. */
    static String stored(String name) {
        if (!isLong(name)) {
            return name;
        }
        return SHORT.computeIfAbsent(
                name,
                n -> {
                    StringBuilder prefix = new StringBuilder();
                    int bytes = 0;
                    for (int i = 0; i < n.length(); ) {
                        int cp = n.codePointAt(i);
                        int size =
                                new String(Character.toChars(cp))
                                        .getBytes(StandardCharsets.UTF_8)
                                        .length;
                        if (bytes + size > PREFIX_BYTES) {
                            break;
                        }
                        prefix.appendCodePoint(cp);
                        bytes += size;
                        i += Character.charCount(cp);
                    }
                    String s = prefix + "_" + sha256(n).substring(0, 12);
                    LONG.put(s, n);
                    return s;
                });
    }

    /** The name a name PostgreSQL returned stands for. */
    static String original(String stored) {
        return LONG.getOrDefault(stored, stored);
    }

    /** Whether any name is mapped (else nothing returned needs looking at). */
    static boolean any() {
        return !LONG.isEmpty();
    }

    /** Whether {@code sql} reads the catalog. */
    static boolean catalog(String sql) {
        return CATALOG.matcher(sql).find();
    }

    /** {@code text} with every stored stand-in replaced by its name (for messages). */
    static String originals(String text) {
        if (LONG.isEmpty()) {
            return text;
        }
        String out = text;
        for (Map.Entry<String, String> e : LONG.entrySet()) {
            if (out.contains(e.getKey())) {
                out = out.replace(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /**
     * {@code sql} as PostgreSQL is to run it: every name over 63 bytes, quoted or not, replaced by
     * its stand-in (quoted); in a catalog query, so is every string literal over 63 bytes.
     */
    static String forward(String sql) {
        if (sql.getBytes(StandardCharsets.UTF_8).length <= POSTGRES_BYTES) {
            return sql;
        }
        boolean catalog = catalog(sql);
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char ch = sql.charAt(i);
            if (ch == '\'') {
                int end = i + 1;
                StringBuilder value = new StringBuilder();
                while (end < n) {
                    char c = sql.charAt(end);
                    if (c == '\'') {
                        if (end + 1 < n && sql.charAt(end + 1) == '\'') {
                            value.append('\'');
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    value.append(c);
                    end++;
                }
                String literal = sql.substring(i, Math.min(end + 1, n));
                boolean escaped = i > 0 && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e');
                if (catalog && !escaped && isLong(value.toString())) {
                    out.append('\'')
                            .append(stored(value.toString()).replace("'", "''"))
                            .append('\'');
                } else {
                    out.append(literal);
                }
                i = end + 1;
            } else if (ch == '"') {
                int end = i + 1;
                StringBuilder value = new StringBuilder();
                while (end < n) {
                    char c = sql.charAt(end);
                    if (c == '"') {
                        if (end + 1 < n && sql.charAt(end + 1) == '"') {
                            value.append('"');
                            end += 2;
                            continue;
                        }
                        break;
                    }
                    value.append(c);
                    end++;
                }
                if (isLong(value.toString())) {
                    out.append(quote(stored(value.toString())));
                } else {
                    out.append(sql, i, Math.min(end + 1, n));
                }
                i = end + 1;
            } else if (Character.isLetter(ch) || ch == '_') {
                int end = i + 1;
                while (end < n
                        && (Character.isLetterOrDigit(sql.charAt(end))
                                || sql.charAt(end) == '_'
                                || sql.charAt(end) == '$')) {
                    end++;
                }
                String word = sql.substring(i, end);
                if (isLong(word)) {
                    out.append(quote(stored(word.toLowerCase(Locale.ROOT))));
                } else {
                    out.append(word);
                }
                i = end;
            } else if (ch == '$' && i + 1 < n && sql.charAt(i + 1) == '$') {
                int end = sql.indexOf("$$", i + 2);
                end = end < 0 ? n : end + 2;
                out.append(sql, i, end);
                i = end;
            } else if (Character.isDigit(ch)) {
                int end = i + 1;
                while (end < n
                        && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '.')) {
                    end++;
                }
                out.append(sql, i, end);
                i = end;
            } else {
                out.append(ch);
                i++;
            }
        }
        return out.toString();
    }

    private static String quote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String sha256(String name) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(name.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
