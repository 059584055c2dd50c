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
 * @param fromRecords in a continuous run's entry, the records read before this read started: the
 *     entry covers the records after them, up to {@code records}; -1 in a {@code --once} run's,
 *     which covers the file from its start (its run started from the position before it)
 */
record FileEntry(
        String file,
        long offset,
        long records,
        int headBytes,
        String head,
        int generation,
        long fromRecords) {
    FileEntry(String file, long offset, long records, int headBytes, String head, int generation) {
        this(file, offset, records, headBytes, head, generation, -1);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    static final int HEAD = 4096;

    /** The entry of {@code file} read up to {@code offset}, digesting its first bytes now. */
    static FileEntry of(Path file, long offset, long records, int generation) throws IOException {
        int bytes = (int) Math.min(HEAD, offset);
        return new FileEntry(
                file.toString(), offset, records, bytes, digest(file, bytes), generation);
    }

    /** This entry as a continuous run's: it covers the records after {@code from}. */
    FileEntry from(long from) {
        return new FileEntry(file, offset, records, headBytes, head, generation, from);
    }

    /**
     * A continuous run's opening of a split of {@code split}'s file ({@link
     * io.skippr.core.record.ReadPositions#opening}): the file, its generation and the records read
     * before the split.
     */
    static String opening(FileSplit split) {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("file", split.path());
        doc.put("generation", split.generation());
        doc.put("fromRecords", split.recordsRead());
        return doc.toString();
    }

    /**
     * The part of a file a continuous run committed rows of without its end: from the opening's
     * records to the record at {@code lastPosition} ({@code <path>#n} or {@code <path>~g#n}), with
     * no offset (a run resuming there skips records) and no digest.
     */
    static FileEntry progress(String opening, String lastPosition) {
        try {
            JsonNode doc = JSON.readTree(opening);
            long last = Long.parseLong(lastPosition.substring(lastPosition.lastIndexOf('#') + 1));
            return new FileEntry(
                    doc.path("file").asText(),
                    -1,
                    last,
                    0,
                    "",
                    doc.path("generation").asInt(),
                    doc.path("fromRecords").asLong());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    "unreadable file progress: " + opening + " " + lastPosition, e);
        }
    }

    /** Whether {@code file}'s first {@link #headBytes} bytes are still the ones read. */
    boolean sameHead(Path file) throws IOException {
        if (headBytes == 0) {
            return true; // nothing read, or a position without a digest (a progress entry)
        }
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
        if (fromRecords >= 0) {
            doc.put("fromRecords", fromRecords);
        }
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
                    doc.path("generation").asInt(),
                    doc.has("fromRecords") ? doc.path("fromRecords").asLong() : -1);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable file position entry: " + line, e);
        }
    }
}
