package io.skippr.sinks.gcs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * The buckets and objects of {@link FakeGcsServer}, in a folder on disk: a folder per bucket, and
 * per object a metadata file ({@code <sha256 of the name>.json}, the object resource the JSON API
 * returns) and a data file per generation. Writes land in a temporary file first and become visible
 * by one atomic rename of the metadata file, so a reader sees an object whole or not at all. One
 * lock serializes every change; generations are microsecond timestamps that only grow, as GCS's do.
 */
final class FakeGcsObjects {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]");

    private final Path root;
    private final Path temp;
    private long lastGeneration;

    FakeGcsObjects(Path root) throws IOException {
        this.root = root;
        this.temp = Files.createDirectories(root.resolve(".tmp"));
    }

    /** Preconditions of a request ({@code ifGenerationMatch}, {@code ifGenerationNotMatch}). */
    record Preconditions(Long generationMatch, Long generationNotMatch) {
        static final Preconditions NONE = new Preconditions(null, null);

        /** Checks a write against the object's current generation, 0 when there is none. */
        void checkWrite(ObjectNode current) {
            long generation = current == null ? 0 : generation(current);
            if ((generationMatch != null && generationMatch != generation)
                    || (generationNotMatch != null && generationNotMatch == generation)) {
                throw new FakeGcsError(
                        412, "conditionNotMet", "At least one of the pre-conditions failed.");
            }
        }
    }

    /** A file of received bytes with its size and hashes, not yet an object. */
    record Content(Path file, long size, String md5, String crc32c) {}

    static long generation(ObjectNode object) {
        return Long.parseLong(object.get("generation").asText());
    }

    private Path bucketDir(String bucket) {
        if (!BUCKET.matcher(bucket).matches()) {
            throw new FakeGcsError(400, "invalid", "Invalid bucket name: '" + bucket + "'");
        }
        return root.resolve(bucket);
    }

    synchronized boolean createBucket(String bucket) throws IOException {
        Path dir = bucketDir(bucket);
        if (Files.isDirectory(dir)) {
            return false;
        }
        Files.createDirectories(dir);
        return true;
    }

    synchronized boolean bucketExists(String bucket) {
        return Files.isDirectory(bucketDir(bucket));
    }

    private Path existingBucket(String bucket) {
        Path dir = bucketDir(bucket);
        if (!Files.isDirectory(dir)) {
            throw new FakeGcsError(404, "notFound", "The specified bucket does not exist.");
        }
        return dir;
    }

    private static String key(String name) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(name.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Path metadataFile(String bucket, String name) {
        return existingBucket(bucket).resolve(key(name) + ".json");
    }

    private Path dataFile(String bucket, String name, long generation) {
        return existingBucket(bucket).resolve(key(name) + "-" + generation + ".bin");
    }

    /** The object resource, or null when there is no such object. */
    synchronized ObjectNode get(String bucket, String name) throws IOException {
        Path file = metadataFile(bucket, name);
        return Files.exists(file) ? (ObjectNode) JSON.readTree(file.toFile()) : null;
    }

    /** The object resource; a 404 error when there is none. */
    ObjectNode require(String bucket, String name) throws IOException {
        ObjectNode object = get(bucket, name);
        if (object == null) {
            throw new FakeGcsError(404, "notFound", "No such object: " + bucket + "/" + name);
        }
        return object;
    }

    /** Opens the bytes of one generation of an object. */
    synchronized InputStream open(ObjectNode object) throws IOException {
        return Files.newInputStream(
                dataFile(
                        object.get("bucket").asText(),
                        object.get("name").asText(),
                        generation(object)));
    }

    /** Copies a request body to a temporary file, hashing it as GCS does (MD5 and CRC32C). */
    Content receive(InputStream in) throws IOException {
        Path file = temp.resolve(UUID.randomUUID() + ".part");
        MessageDigest md5;
        try {
            md5 = MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        CRC32C crc = new CRC32C();
        long size = 0;
        try (OutputStream out = Files.newOutputStream(file)) {
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
                md5.update(buffer, 0, n);
                crc.update(buffer, 0, n);
                size += n;
            }
        }
        return new Content(
                file, size, Base64.getEncoder().encodeToString(md5.digest()), crc32c(crc));
    }

    static String crc32c(CRC32C crc) {
        long value = crc.getValue();
        byte[] bytes = {
            (byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value
        };
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * Makes {@code content} the new generation of an object, with the metadata the client sent
     * ({@code contentType}, {@code metadata}); refuses a {@code crc32c} or {@code md5Hash} that the
     * bytes do not have, as GCS does.
     */
    synchronized ObjectNode put(
            String bucket, String name, ObjectNode requested, Content content, Preconditions pre)
            throws IOException {
        try {
            checkName(name);
            if (requested.hasNonNull("crc32c")
                    && !requested.get("crc32c").asText().equals(content.crc32c())) {
                throw new FakeGcsError(
                        400,
                        "invalid",
                        "Provided CRC32C \""
                                + requested.get("crc32c").asText()
                                + "\" doesn't match calculated CRC32C \""
                                + content.crc32c()
                                + "\".");
            }
            if (requested.hasNonNull("md5Hash")
                    && !requested.get("md5Hash").asText().equals(content.md5())) {
                throw new FakeGcsError(400, "invalid", "Provided MD5 hash doesn't match.");
            }
            ObjectNode current = get(bucket, name);
            pre.checkWrite(current);
            long generation = nextGeneration();
            Files.move(
                    content.file(),
                    dataFile(bucket, name, generation),
                    StandardCopyOption.ATOMIC_MOVE);
            ObjectNode object = resource(bucket, name, generation, requested, content);
            publish(bucket, name, object, current);
            return object;
        } finally {
            Files.deleteIfExists(content.file());
        }
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty() || name.getBytes(StandardCharsets.UTF_8).length > 1024) {
            throw new FakeGcsError(400, "required", "Required: object name of 1 to 1024 bytes");
        }
    }

    private long nextGeneration() {
        long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
        lastGeneration = Math.max(now, lastGeneration + 1);
        return lastGeneration;
    }

    private ObjectNode resource(
            String bucket, String name, long generation, ObjectNode requested, Content content) {
        String now = Instant.now().truncatedTo(ChronoUnit.MILLIS).toString();
        ObjectNode object = JSON.createObjectNode();
        object.put("kind", "storage#object");
        object.put("id", bucket + "/" + name + "/" + generation);
        object.put("name", name);
        object.put("bucket", bucket);
        object.put("generation", Long.toString(generation));
        object.put("metageneration", "1");
        object.put(
                "contentType",
                requested.hasNonNull("contentType")
                        ? requested.get("contentType").asText()
                        : "application/octet-stream");
        object.put("storageClass", "STANDARD");
        object.put("size", Long.toString(content.size()));
        object.put("md5Hash", content.md5());
        object.put("crc32c", content.crc32c());
        object.put("etag", "C" + Long.toHexString(generation) + "=");
        object.put("timeCreated", now);
        object.put("updated", now);
        if (requested.has("metadata") && requested.get("metadata").isObject()) {
            object.set("metadata", requested.get("metadata"));
        }
        return object;
    }

    private void publish(String bucket, String name, ObjectNode object, ObjectNode replaced)
            throws IOException {
        Path pending = temp.resolve(UUID.randomUUID() + ".json");
        JSON.writeValue(pending.toFile(), object);
        Files.move(pending, metadataFile(bucket, name), StandardCopyOption.ATOMIC_MOVE);
        if (replaced != null) {
            Files.deleteIfExists(dataFile(bucket, name, generation(replaced)));
        }
    }

    /** Copies an object's bytes to a new generation of another name (a rewrite or copy). */
    synchronized ObjectNode copy(
            ObjectNode source, String bucket, String name, ObjectNode requested, Preconditions pre)
            throws IOException {
        existingBucket(bucket);
        Content content;
        try (InputStream in = open(source)) {
            content = receive(in);
        }
        ObjectNode metadata = requested != null ? requested : source.deepCopy();
        metadata.remove(List.of("crc32c", "md5Hash"));
        return put(bucket, name, metadata, content, pre);
    }

    /** GCS orders names by their UTF-8 bytes. */
    static int compareNames(String a, String b) {
        return Arrays.compareUnsigned(
                a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    synchronized void delete(String bucket, String name, Preconditions pre) throws IOException {
        ObjectNode current = require(bucket, name);
        pre.checkWrite(current);
        Files.delete(metadataFile(bucket, name));
        Files.deleteIfExists(dataFile(bucket, name, generation(current)));
    }

    /** Every object of a bucket whose name starts with {@code prefix}, in name order. */
    synchronized List<ObjectNode> list(String bucket, String prefix) throws IOException {
        List<ObjectNode> objects = new ArrayList<>();
        try (Stream<Path> files = Files.list(existingBucket(bucket))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".json")).toList()) {
                ObjectNode object = (ObjectNode) JSON.readTree(file.toFile());
                if (object.get("name").asText().startsWith(prefix)) {
                    objects.add(object);
                }
            }
        }
        objects.sort((a, b) -> compareNames(a.get("name").asText(), b.get("name").asText()));
        return objects;
    }
}
