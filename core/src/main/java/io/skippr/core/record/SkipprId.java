package io.skippr.core.record;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The deterministic {@code _skippr_id}: 32 hex digits of SHA-256 over the stream and the source
 * position, so a replayed row gets the id it had the first time.
 */
public final class SkipprId {
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final ThreadLocal<Hasher> HASHER = ThreadLocal.withInitial(Hasher::new);

    private SkipprId() {}

    public static String of(String stream, String position) {
        return HASHER.get().of(stream, position);
    }

    /**
     * Computes ids with a digest of its own: for one thread, such as an operator's, which calls it
     * once per row and should not look up a thread-local each time.
     */
    public static final class Hasher {
        private final MessageDigest sha = sha256();
        private String lastStream = "";
        private byte[] lastStreamBytes = {};

        public String of(String stream, String position) {
            if (!stream.equals(lastStream)) { // rows come stream by stream
                lastStream = stream;
                lastStreamBytes = stream.getBytes(StandardCharsets.UTF_8);
            }
            // digest() below leaves the digest reset for the next id
            sha.update(lastStreamBytes);
            sha.update((byte) 0);
            byte[] digest = sha.digest(position.getBytes(StandardCharsets.UTF_8));
            char[] out = new char[32];
            for (int i = 0; i < 16; i++) {
                out[2 * i] = HEX[(digest[i] >> 4) & 0xf];
                out[2 * i + 1] = HEX[digest[i] & 0xf];
            }
            return new String(out);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
