package io.skippr.sinks.snowflake.fake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names the fake stores under another name in the backing PostgreSQL: Snowflake keeps names of
 * up to 255 characters, PostgreSQL 63 bytes, and would cut a longer one silently. So a schema,
 * table or column name over 63 bytes is stored under a deterministic stand-in, its first bytes (at
 * most 50, whole characters), {@code _} and 12 hex digits of the SHA-256 of the whole name, in
 * every statement the fake sends PostgreSQL; what comes back (column labels, catalog values,
 * messages) names the original again. The mapping is kept for the whole JVM, so a name stored
 * through one fake reads back whole through another (as the Redshift twin's and the fake
 * Databricks' do).
 */
final class BackingNames {
    /** PostgreSQL's NAMEDATALEN - 1. */
    static final int PG_NAME_BYTES = 63;

    private static final int PREFIX_BYTES = 50;

    private static final Map<String, String> STAND_INS = new ConcurrentHashMap<>();
    private static final Map<String, String> ORIGINALS = new ConcurrentHashMap<>();

    private BackingNames() {}

    static boolean isLong(String name) {
        return name.getBytes(StandardCharsets.UTF_8).length > PG_NAME_BYTES;
    }

    /** The name PostgreSQL stores {@code name} under: itself, or its stand-in. */
    static String standIn(String name) {
        if (!isLong(name)) {
            return name;
        }
        return STAND_INS.computeIfAbsent(
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
                    ORIGINALS.put(s, n);
                    return s;
                });
    }

    /** The name a PostgreSQL name stands for: the original of a stand-in, else itself. */
    static String original(String pgName) {
        return pgName == null ? null : ORIGINALS.getOrDefault(pgName, pgName);
    }

    /** {@code text} with every stand-in in it replaced by its name (for messages). */
    static String originals(String text) {
        if (text == null || ORIGINALS.isEmpty()) {
            return text;
        }
        String out = text;
        for (Map.Entry<String, String> e : ORIGINALS.entrySet()) {
            if (out.contains(e.getKey())) {
                out = out.replace(e.getKey(), e.getValue());
            }
        }
        return out;
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
