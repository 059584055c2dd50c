package io.skippr.sinks.bigquery.fake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * BigQuery names in PostgreSQL: kept as they are up to 63 bytes; a longer one (BigQuery takes 300
 * characters for a column, 1024 bytes for a table) under a deterministic stand-in, its first bytes,
 * {@code _} and 12 hex digits of its SHA-256, which the fake maps back in every answer.
 */
final class Names {
    private static final int PG_MAX = 63;
    private static final Map<String, String> ORIGINALS = new ConcurrentHashMap<>();

    private Names() {}

    static String standIn(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= PG_MAX) {
            return name;
        }
        String hash;
        try {
            hash =
                    HexFormat.of()
                            .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))
                            .substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        StringBuilder kept = new StringBuilder();
        int used = 0;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            int len = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
            if (used + len > PG_MAX - 13) {
                break;
            }
            kept.appendCodePoint(cp);
            used += len;
            i += Character.charCount(cp);
        }
        String standIn = kept + "_" + hash;
        ORIGINALS.put(standIn, name);
        return standIn;
    }

    static String original(String pgName) {
        return ORIGINALS.getOrDefault(pgName, pgName);
    }

    static String pgIdentifier(String name) {
        return "\"" + standIn(name).replace("\"", "\"\"") + "\"";
    }
}
