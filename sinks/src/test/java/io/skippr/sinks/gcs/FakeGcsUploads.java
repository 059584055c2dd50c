package io.skippr.sinks.gcs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The resumable uploads of {@link FakeGcsServer} (uploadType=resumable), on disk: a session file
 * ({@code <upload_id>.json}: bucket, object metadata, preconditions, and the object once finalized)
 * and the bytes persisted so far ({@code <upload_id>.part}). A PUT carries {@code Content-Range:
 * bytes a-b/total} (or {@code /*} while the size is unknown, or {@code bytes *}{@code /total} to
 * finalize or query); an unfinished session answers 308 with the {@code Range} it holds, a
 * finalized one 200 with the object.
 */
final class FakeGcsUploads {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RANGE = Pattern.compile("bytes (?:(\\d+)-(\\d+)|\\*)/(\\d+|\\*)");
    private static final Pattern ID = Pattern.compile("[0-9a-f-]{36}");

    private final Path dir;
    private final FakeGcsObjects objects;

    FakeGcsUploads(Path root, FakeGcsObjects objects) throws IOException {
        this.dir = Files.createDirectories(root.resolve(".uploads"));
        this.objects = objects;
    }

    /** What a PUT left: the finished object, or the number of bytes persisted so far. */
    record Progress(ObjectNode object, long persisted) {}

    /** Starts a session for an object; returns its upload id. */
    String start(String bucket, ObjectNode metadata, FakeGcsObjects.Preconditions pre)
            throws IOException {
        if (!objects.bucketExists(bucket)) {
            throw new FakeGcsError(404, "notFound", "The specified bucket does not exist.");
        }
        if (!metadata.hasNonNull("name")) {
            throw new FakeGcsError(400, "required", "Required: object name");
        }
        String id = UUID.randomUUID().toString();
        ObjectNode session = JSON.createObjectNode();
        session.put("bucket", bucket);
        session.set("metadata", metadata);
        if (pre.generationMatch() != null) {
            session.put("ifGenerationMatch", pre.generationMatch());
        }
        if (pre.generationNotMatch() != null) {
            session.put("ifGenerationNotMatch", pre.generationNotMatch());
        }
        JSON.writeValue(file(id, ".json").toFile(), session);
        Files.createFile(file(id, ".part"));
        return id;
    }

    private Path file(String id, String suffix) {
        if (id == null || !ID.matcher(id).matches()) {
            throw new FakeGcsError(404, "notFound", "No such upload session: " + id);
        }
        return dir.resolve(id + suffix);
    }

    /**
     * Appends a PUT's bytes to a session, finalizing it when they complete the object. Bytes the
     * session already holds are skipped, as GCS does when a client resends them.
     *
     * @param crc32c the {@code x-goog-hash} CRC32C of the whole object, or null
     */
    synchronized Progress put(String id, String contentRange, InputStream body, String crc32c)
            throws IOException {
        Path sessionFile = file(id, ".json");
        if (!Files.exists(sessionFile)) {
            throw new FakeGcsError(404, "notFound", "No such upload session: " + id);
        }
        ObjectNode session = (ObjectNode) JSON.readTree(sessionFile.toFile());
        if (session.has("object")) {
            return new Progress((ObjectNode) session.get("object"), -1);
        }
        Matcher range = RANGE.matcher(contentRange == null ? "" : contentRange.trim());
        if (!range.matches()) {
            throw new FakeGcsError(
                    400, "invalid", "Failed to parse Content-Range header: " + contentRange);
        }
        Path part = file(id, ".part");
        long persisted = Files.size(part);
        if (range.group(1) != null) {
            long first = Long.parseLong(range.group(1));
            long last = Long.parseLong(range.group(2));
            if (first > persisted) {
                throw new FakeGcsError(
                        400,
                        "invalid",
                        "Content-Range starts at "
                                + first
                                + " but "
                                + persisted
                                + " are persisted");
            }
            body.skipNBytes(persisted - first);
            long copied;
            try (OutputStream out = Files.newOutputStream(part, StandardOpenOption.APPEND)) {
                copied = body.transferTo(out);
            }
            if (persisted + copied != last + 1) {
                try (FileChannel channel = FileChannel.open(part, StandardOpenOption.WRITE)) {
                    channel.truncate(persisted);
                }
                throw new FakeGcsError(
                        400, "invalid", "the body does not fill Content-Range " + contentRange);
            }
            persisted = last + 1;
        }
        if (range.group(3).equals("*") || Long.parseLong(range.group(3)) != persisted) {
            return new Progress(null, persisted);
        }
        ObjectNode metadata = (ObjectNode) session.get("metadata");
        if (crc32c != null) {
            metadata.put("crc32c", crc32c);
        }
        FakeGcsObjects.Content content;
        try (InputStream in = Files.newInputStream(part)) {
            content = objects.receive(in);
        }
        ObjectNode object =
                objects.put(
                        session.get("bucket").asText(),
                        metadata.get("name").asText(),
                        metadata,
                        content,
                        new FakeGcsObjects.Preconditions(
                                session.has("ifGenerationMatch")
                                        ? session.get("ifGenerationMatch").asLong()
                                        : null,
                                session.has("ifGenerationNotMatch")
                                        ? session.get("ifGenerationNotMatch").asLong()
                                        : null));
        session.set("object", object);
        JSON.writeValue(sessionFile.toFile(), session);
        Files.delete(part);
        return new Progress(object, persisted);
    }
}
