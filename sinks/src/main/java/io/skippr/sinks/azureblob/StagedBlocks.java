package io.skippr.sinks.azureblob;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * The blocks of one staged file, as its {@code Staged} token says: how many 4 MiB blocks and a
 * digest of the file's bytes, {@code <count>:<digest>}. Block ids are derived from both, so they
 * are deterministic (staging the same file again writes the same ids), all the same length (Azure
 * requires that within a blob), and a committed block list equal to {@link #ids()} is this very
 * file: a replayed publish recognises it without keeping every id in the token.
 */
record StagedBlocks(int count, String digest) {
    /** Azure's own default block size; 50,000 blocks make a 195 GiB blob at most. */
    static final int BLOCK_SIZE = 4 * 1024 * 1024;

    static final int MAX_BLOCKS = 50_000;

    /** Reads {@code file} once to name its blocks. */
    static StagedBlocks of(Path file) throws IOException {
        long size = Files.size(file);
        long count = (size + BLOCK_SIZE - 1) / BLOCK_SIZE;
        if (count > MAX_BLOCKS) {
            throw new IOException(
                    file
                            + " has "
                            + size
                            + " bytes: more than one Azure block blob holds ("
                            + MAX_BLOCKS
                            + " blocks of 4 MiB)");
        }
        MessageDigest sha = sha256();
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf)) > 0; ) {
                sha.update(buf, 0, n);
            }
        }
        // 128 bits of SHA-256 identify the content; the whole id stays well under Azure's 64 bytes.
        return new StagedBlocks((int) count, HexFormat.of().formatHex(sha.digest(), 0, 16));
    }

    static StagedBlocks parse(String token) throws IOException {
        int colon = token.indexOf(':');
        try {
            StagedBlocks blocks =
                    new StagedBlocks(
                            Integer.parseInt(token.substring(0, colon)),
                            token.substring(colon + 1));
            if (blocks.count >= 0 && blocks.digest.matches("[0-9a-f]{32}")) {
                return blocks;
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new IOException(
                "'" + token + "' is not an Azure Blob staging token (<blocks>:<digest>)");
    }

    String token() {
        return count + ":" + digest;
    }

    /** The base64 id of block {@code index}: {@code <digest>-<index, 6 digits>}, 39 bytes. */
    String id(int index) {
        String raw = digest + "-" + String.format("%06d", index);
        return Base64.getEncoder().encodeToString(raw.getBytes(StandardCharsets.US_ASCII));
    }

    List<String> ids() {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(id(i));
        }
        return ids;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
