package io.skippr.sinks.s3;

import io.skippr.sinks.files.FileStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A bucket and key prefix in S3 or an S3-compatible store. A staged file is a multipart upload to
 * its final key that is not completed yet, so it is durable but invisible; publishing completes it,
 * which makes the whole object appear at once. The upload id and part ETags travel in the {@link
 * FileStore.Staged} token, so any process can complete it.
 *
 * <p>{@link #discardStaged} aborts the unfinished multipart uploads of one pipeline's files under
 * the prefix; other pipelines' uploads stay.
 */
public final class S3FileStore implements FileStore {
    private static final long serialVersionUID = 1L;

    /** S3's limits: parts of at least 5 MiB except the last, at most 10,000 parts. */
    static final int MIN_PART_SIZE = 8 * 1024 * 1024;

    private static final int MAX_PARTS = 10_000;

    private final String bucket;
    private final String root;
    private final S3Connection connection;
    private final int partSize;
    private transient S3Client client;

    /**
     * @param prefix the key prefix, with or without slashes around it; empty or null for the whole
     *     bucket
     */
    public S3FileStore(S3Connection connection, String bucket, String prefix) {
        this(connection, bucket, prefix, MIN_PART_SIZE);
    }

    S3FileStore(S3Connection connection, String bucket, String prefix, int partSize) {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("an S3 file store needs a bucket");
        }
        String trimmed = FileStore.prefix(prefix);
        this.connection = connection;
        this.bucket = bucket.trim();
        this.root = trimmed.isEmpty() ? "" : trimmed + "/";
        this.partSize = partSize;
    }

    @Override
    public String describe() {
        String where = "s3://" + bucket + "/" + root;
        return connection.endpoint() == null ? where : where + " at " + connection.endpoint();
    }

    private String url(String key) {
        return "s3://" + bucket + "/" + root + key;
    }

    private S3Client client() {
        if (client == null) {
            client = connection.open();
        }
        return client;
    }

    private IOException failure(String action, String permission, SdkException e) {
        return S3Errors.failure(action, permission, bucket, connection.endpoint(), e);
    }

    /**
     * The user metadata (without {@code x-amz-meta-}) holding the SHA-256 of the object's content,
     * which the multipart upload sets and a replayed publish compares: ETags are MD5s only without
     * SSE-KMS and SSE-C.
     */
    static final String SHA256 = "skippr-sha256";

    @Override
    public Staged stage(Path local, String key) throws IOException {
        String sha256 = sha256(local);
        long size = Files.size(local);
        String uploadId;
        try {
            uploadId =
                    client().createMultipartUpload(
                                    b ->
                                            b.bucket(bucket)
                                                    .key(root + key)
                                                    .metadata(java.util.Map.of(SHA256, sha256)))
                            .uploadId();
        } catch (SdkException e) {
            throw failure("starting the upload of " + url(key), "s3:PutObject", e);
        }
        try {
            List<String> etags = uploadParts(local, key, uploadId);
            Files.deleteIfExists(local);
            return new Staged(key, new MultipartToken(uploadId, sha256, size, etags).encode());
        } catch (IOException | RuntimeException e) {
            abortQuietly(key, uploadId, e);
            throw e;
        }
    }

    private static String sha256(Path local) throws IOException {
        java.security.MessageDigest digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        try (InputStream in = Files.newInputStream(local)) {
            byte[] buffer = new byte[64 * 1024];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                digest.update(buffer, 0, n);
            }
        }
        return java.util.HexFormat.of().formatHex(digest.digest());
    }

    private List<String> uploadParts(Path local, String key, String uploadId) throws IOException {
        long size = Files.size(local);
        int part = (int) Math.max(partSize, (size + MAX_PARTS - 1) / MAX_PARTS);
        byte[] buffer = new byte[(int) Math.min(part, Math.max(size, 1))];
        List<String> etags = new ArrayList<>();
        try (InputStream in = Files.newInputStream(local)) {
            do {
                int length = in.readNBytes(buffer, 0, buffer.length);
                int number = etags.size() + 1;
                try {
                    etags.add(
                            client().uploadPart(
                                            b ->
                                                    b.bucket(bucket)
                                                            .key(root + key)
                                                            .uploadId(uploadId)
                                                            .partNumber(number)
                                                            .contentLength((long) length),
                                            RequestBody.fromContentProvider(
                                                    () ->
                                                            new ByteArrayInputStream(
                                                                    buffer, 0, length),
                                                    length,
                                                    "application/octet-stream"))
                                    .eTag());
                } catch (SdkException e) {
                    throw failure(
                            "uploading part " + number + " of " + url(key), "s3:PutObject", e);
                }
            } while ((long) etags.size() * buffer.length < size);
        }
        return etags;
    }

    private void abortQuietly(String key, String uploadId, Exception cause) {
        try {
            client().abortMultipartUpload(b -> b.bucket(bucket).key(root + key).uploadId(uploadId));
        } catch (SdkException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Completes the staged upload with {@code If-None-Match: *}, so it never replaces an object
     * already under the key (S3 and S3Proxy 4.1 answer 412 instead). A key that holds an object is
     * this very file when the object's {@value #SHA256} metadata is the staged content's SHA-256
     * and its size the staged size (set by {@link #stage}; an ETag is the content's MD5 only
     * without SSE-KMS and SSE-C): then it is a replayed commit, and the answer is false. Any other
     * object under the key is a committed file of its own: the publish fails, naming both, and
     * leaves it as it is. A token an earlier Skippr staged (no SHA-256) is compared by ETag.
     */
    @Override
    public boolean publish(Staged staged) throws IOException {
        String key = staged.key();
        MultipartToken token = MultipartToken.decode(staged.token(), url(key));
        // S3 may answer a repeated CompleteMultipartUpload with success for a while, so ask first
        // whether the upload is still open: a replayed commit then reports false.
        if (uploadOpen(key, token.uploadId())) {
            List<CompletedPart> parts = new ArrayList<>();
            for (int i = 0; i < token.etags().size(); i++) {
                parts.add(
                        CompletedPart.builder()
                                .partNumber(i + 1)
                                .eTag(token.etags().get(i))
                                .build());
            }
            try {
                client().completeMultipartUpload(
                                b ->
                                        b.bucket(bucket)
                                                .key(root + key)
                                                .uploadId(token.uploadId())
                                                .ifNoneMatch("*")
                                                .multipartUpload(m -> m.parts(parts)));
                return true;
            } catch (SdkException e) {
                if (S3Errors.isStatus(e, 412)) {
                    return alreadyThere(key, token, true);
                }
                if (!S3Errors.isCode(e, "NoSuchUpload")) {
                    throw failure("completing the upload of " + url(key), "s3:PutObject", e);
                }
            }
        }
        if (exists(key)) {
            return alreadyThere(key, token, false);
        }
        throw new IOException(
                "the staged upload of "
                        + url(key)
                        + " is gone and the object was never published: the upload was aborted"
                        + " (by a lifecycle rule or another run of this sink) before its"
                        + " checkpoint was committed");
    }

    /**
     * False when the object under {@code key} is the staged file (same SHA-256 metadata and size;
     * for a version 1 token, the completed upload's ETag), aborting the upload if it is still open;
     * else fails, leaving the object intact.
     */
    private boolean alreadyThere(String key, MultipartToken token, boolean open)
            throws IOException {
        String found;
        String foundSha256;
        long size;
        try {
            var head = client().headObject(b -> b.bucket(bucket).key(root + key));
            found = head.eTag() == null ? "" : head.eTag().replace("\"", "");
            foundSha256 = head.hasMetadata() ? head.metadata().get(SHA256) : null;
            size = head.contentLength() == null ? -1 : head.contentLength();
        } catch (SdkException e) {
            throw failure("looking up " + url(key), "s3:GetObject", e);
        }
        boolean same;
        String expected;
        if (token.sha256() != null) {
            same = token.sha256().equals(foundSha256) && token.size() == size;
            expected = "SHA-256 " + token.sha256() + ", " + token.size() + " bytes";
        } else {
            String etag = MultipartToken.completedEtag(token.etags());
            // an earlier Skippr's token: where its part ETags are no MD5s (SSE-KMS, SSE-C) there
            // is nothing to compare, and the object is taken for the replay it almost always is
            same = etag == null || etag.equals(found);
            expected = "ETag " + etag;
        }
        if (same) {
            if (open) {
                discard(new Staged(key, token.encode()));
            }
            return false;
        }
        throw new IOException(
                "refusing to publish "
                        + url(key)
                        + ": it already holds a committed object (ETag "
                        + found
                        + (foundSha256 == null ? "" : ", SHA-256 " + foundSha256)
                        + ", "
                        + size
                        + " bytes) that is not the staged file ("
                        + expected
                        + "), and a publish never replaces a committed file. A file name was used"
                        + " twice, or something else wrote under the sink's prefix; the object is"
                        + " left as it is and the staged upload "
                        + token.uploadId()
                        + " is kept");
    }

    private boolean uploadOpen(String key, String uploadId) throws IOException {
        try {
            // Every staged upload has a part (an empty file has one empty part). AWS answers
            // NoSuchUpload once an upload is completed or aborted; S3Proxy lists no parts.
            return !client().listParts(
                            b -> b.bucket(bucket).key(root + key).uploadId(uploadId).maxParts(1))
                    .parts()
                    .isEmpty();
        } catch (SdkException e) {
            if (S3Errors.isCode(e, "NoSuchUpload")) {
                return false;
            }
            throw failure(
                    "looking up the staged upload of " + url(key),
                    "s3:ListMultipartUploadParts",
                    e);
        }
    }

    @Override
    public void discard(Staged staged) throws IOException {
        MultipartToken token = MultipartToken.decode(staged.token(), url(staged.key()));
        try {
            client().abortMultipartUpload(
                            b ->
                                    b.bucket(bucket)
                                            .key(root + staged.key())
                                            .uploadId(token.uploadId()));
        } catch (SdkException e) {
            if (!S3Errors.isCode(e, "NoSuchUpload")) {
                throw failure(
                        "aborting the staged upload of " + url(staged.key()),
                        "s3:AbortMultipartUpload",
                        e);
            }
        }
    }

    @Override
    public void discardStaged(String owner) throws IOException {
        List<MultipartUpload> uploads = new ArrayList<>();
        try {
            client().listMultipartUploadsPaginator(b -> b.bucket(bucket).prefix(root))
                    .uploads()
                    .forEach(uploads::add);
        } catch (SdkException e) {
            throw failure(
                    "listing staged uploads under " + describe(),
                    "s3:ListBucketMultipartUploads",
                    e);
        }
        for (MultipartUpload upload : uploads) {
            String key = upload.key().substring(root.length());
            if (!FileStore.owner(key).equals(owner)) {
                continue; // another pipeline's, sharing the prefix
            }
            discard(new Staged(key, new MultipartToken(upload.uploadId(), List.of()).encode()));
        }
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        try {
            client().putObject(b -> b.bucket(bucket).key(root + key), RequestBody.fromBytes(bytes));
        } catch (SdkException e) {
            throw failure("writing " + url(key), "s3:PutObject", e);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        try {
            return client().getObjectAsBytes(b -> b.bucket(bucket).key(root + key)).asByteArray();
        } catch (SdkException e) {
            throw readFailure(key, e);
        }
    }

    private IOException readFailure(String key, SdkException e) {
        if (S3Errors.isCode(e, "NoSuchKey")) {
            NoSuchFileException absent = new NoSuchFileException(url(key));
            absent.initCause(e);
            return absent;
        }
        return failure("reading " + url(key), "s3:GetObject", e);
    }

    @Override
    public boolean exists(String key) throws IOException {
        try {
            client().headObject(b -> b.bucket(bucket).key(root + key));
            return true;
        } catch (SdkException e) {
            if (S3Errors.isStatus(e, 404)) {
                return false;
            }
            // without s3:ListBucket, S3 answers 403 rather than 404 for a missing key
            throw failure("looking up " + url(key), "s3:GetObject (and s3:ListBucket)", e);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        try {
            for (S3Object object :
                    client().listObjectsV2Paginator(b -> b.bucket(bucket).prefix(root + prefix))
                            .contents()) {
                keys.add(object.key().substring(root.length()));
            }
        } catch (SdkException e) {
            throw failure("listing " + url(prefix), "s3:ListBucket", e);
        }
        keys.sort(null);
        return keys;
    }

    @Override
    public void delete(String key) throws IOException {
        try {
            client().deleteObject(b -> b.bucket(bucket).key(root + key));
        } catch (SdkException e) {
            throw failure("deleting " + url(key), "s3:DeleteObject", e);
        }
    }

    @Override
    public void download(String key, Path local) throws IOException {
        try (ResponseInputStream<GetObjectResponse> in =
                client().getObject(b -> b.bucket(bucket).key(root + key))) {
            Files.copy(in, local, StandardCopyOption.REPLACE_EXISTING);
        } catch (SdkException e) {
            throw readFailure(key, e);
        }
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
