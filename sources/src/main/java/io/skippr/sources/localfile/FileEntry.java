package io.skippr.sources.localfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * How far a run read one file, as the position committed with its rows remembers it (one line of a
 * {@link io.skippr.core.record.ReadPositions} position): the byte offset just after the last record
 * read and the records up to it, and a digest of the file's first bytes, which appending does not
 * change. A later run reads only the bytes after {@code offset} of a file whose first bytes are
 * unchanged; a file that is shorter or whose first bytes changed was rewritten, and is read again
 * as its next {@code generation}.
 *
 * @param file the file's absolute path
 * @param offset the byte offset just after the last record read (a Parquet file's size)
 * @param records the records read up to {@code offset}
 * @param headBytes how many first bytes {@code head} digests: the first 4 KiB, or fewer
 * @param head SHA-256 of the first {@code headBytes} bytes, in hex
 * @param generation 0 for the file as first read; one more each time it is read again after a
 *     rewrite (rows of a later generation have positions of their own)
 */
record FileEntry(
        String file, long offset, long records, int headBytes, String head, int generation) {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final int HEAD = 4096;

    /** The entry of {@code file} read up to {@code offset}, digesting its first bytes now. */
    static FileEntry of(Path file, long offset, long records, int generation) throws IOException {
        int bytes = (int) Math.min(HEAD, offset);
        return new FileEntry(
                file.toString(), offset, records, bytes, digest(file, bytes), generation);
    }

    /** Whether {@code file}'s first {@link #headBytes} bytes are still the ones read. */
    boolean sameHead(Path file) throws IOException {
        return Files.size(file) >= headBytes && head.equals(digest(file, headBytes));
    }

    private static String digest(Path file, int bytes) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (InputStream in = Files.newInputStream(file)) {
            sha.update(in.readNBytes(bytes));
        }
        return java.util.HexFormat.of().formatHex(sha.digest());
    }

    String toLine() {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("file", file);
        doc.put("offset", offset);
        doc.put("records", records);
        doc.put("headBytes", headBytes);
        doc.put("head", head);
        doc.put("generation", generation);
        return doc.toString();
    }

    static FileEntry parse(String line) {
        try {
            JsonNode doc = JSON.readTree(line);
            return new FileEntry(
                    doc.path("file").asText(),
                    doc.path("offset").asLong(),
                    doc.path("records").asLong(),
                    doc.path("headBytes").asInt(),
                    doc.path("head").asText(),
                    doc.path("generation").asInt());
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable file position entry: " + line, e);
        }
    }
}
