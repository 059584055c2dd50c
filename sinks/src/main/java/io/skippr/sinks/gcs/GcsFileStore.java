package io.skippr.sinks.gcs;

import com.google.auth.oauth2.GoogleCredentials;
import com.google.cloud.NoCredentials;
import com.google.cloud.storage.Blob;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.TemporaryNamePublish;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A bucket (and an optional name prefix) on Google Cloud Storage. Staged files are uploaded to the
 * temporary object {@code <prefix>/.skippr-staging/<uuid>}; publishing copies (rewrites) it to its
 * key, one atomic object write, then deletes the temporary object. Small files are written in one
 * request, which GCS makes visible whole or not at all.
 *
 * <p>Credentials come from {@code credentials_file} (a service account key) or, without it, from
 * the application default credentials of the machine. An {@code endpoint} replaces Google's; a
 * plain-http one on this machine (an emulator, a test's fake) gets no credentials ({@link
 * GcsEndpoint}).
 */
public final class GcsFileStore implements FileStore {
    private static final long serialVersionUID = 1L;

    private final String bucket;
    private final String prefix;
    private final String projectId;
    private final String credentialsFile;
    private final GcsEndpoint endpoint;

    /** Options given by a test (an in-memory double); null builds them from the fields above. */
    private final StorageOptions injected;

    private transient Storage storage;

    /**
     * @param prefix object name prefix without a trailing slash, or null for the whole bucket
     * @param projectId null for the project of the credentials
     * @param credentialsFile service account key file, or null for application default credentials
     * @param endpoint the JSON API endpoint, or null for Google's
     * @throws IllegalArgumentException for an endpoint {@link GcsEndpoint} refuses, or credentials
     *     with a plain-http endpoint
     */
    public GcsFileStore(
            String bucket,
            String prefix,
            String projectId,
            String credentialsFile,
            String endpoint) {
        this(bucket, prefix, projectId, credentialsFile, GcsEndpoint.parse(endpoint), null);
    }

    /** A store on {@code options}: for tests against {@code LocalStorageHelper}. */
    GcsFileStore(String bucket, String prefix, StorageOptions options) {
        this(bucket, prefix, null, null, null, options);
    }

    private GcsFileStore(
            String bucket,
            String prefix,
            String projectId,
            String credentialsFile,
            GcsEndpoint endpoint,
            StorageOptions injected) {
        if (bucket == null || bucket.isBlank()) {
            throw new IllegalArgumentException("GCS needs a bucket");
        }
        if (endpoint != null && endpoint.local() && credentialsFile != null) {
            throw new IllegalArgumentException(
                    "credentials_file is never sent to a plain-http endpoint ("
                            + endpoint.url()
                            + "); leave it out, or use https");
        }
        this.endpoint = endpoint;
        this.bucket = bucket;
        this.prefix = FileStore.prefix(prefix == null ? null : prefix.trim());
        this.projectId = projectId;
        this.credentialsFile = credentialsFile;
        this.injected = injected;
    }

    @Override
    public String describe() {
        return "gs://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }

    /** The object name of a key. */
    String name(String key) {
        return prefix.isEmpty() ? key : prefix + "/" + key;
    }

    private String staging() {
        return name(STAGING) + "/";
    }

    private BlobId id(String name) {
        return BlobId.of(bucket, name);
    }

    private synchronized Storage storage() throws IOException {
        if (storage == null) {
            storage = (injected != null ? injected : options()).getService();
        }
        return storage;
    }

    private StorageOptions options() throws IOException {
        // five attempts, 0.5 s apart and doubling up to 2 s: an unreachable endpoint fails in
        // seconds, not the client's 50 s; Flink's restarts, with their own backoff, retry longer
        StorageOptions.Builder options =
                StorageOptions.http()
                        .setRetrySettings(
                                StorageOptions.getDefaultRetrySettings().toBuilder()
                                        .setMaxAttempts(5)
                                        .setInitialRetryDelayDuration(
                                                java.time.Duration.ofMillis(500))
                                        .setMaxRetryDelayDuration(java.time.Duration.ofSeconds(2))
                                        .build());
        if (projectId != null) {
            options.setProjectId(projectId);
        }
        if (endpoint != null) {
            options.setHost(endpoint.url());
        }
        if (endpoint != null && endpoint.local()) {
            options.setCredentials(NoCredentials.getInstance());
            if (projectId == null) {
                options.setProjectId("local"); // the service needs none; spares a metadata probe
            }
            return options.build();
        }
        if (credentialsFile != null) {
            try (InputStream in = Files.newInputStream(Path.of(credentialsFile))) {
                options.setCredentials(GoogleCredentials.fromStream(in));
            } catch (NoSuchFileException e) {
                throw new IOException(
                        "GCS credentials_file " + credentialsFile + " does not exist", e);
            } catch (IOException e) {
                throw new IOException(
                        "GCS credentials_file "
                                + credentialsFile
                                + " is not a service account key file (JSON)",
                        e);
            }
        }
        return options.build();
    }

    @Override
    public Staged stage(Path local, String key) throws IOException {
        String temp = staging() + FileStore.owner(key) + "/" + UUID.randomUUID();
        try {
            // the staged object's name goes along as metadata (and the copy sets it on the key),
            // where it tells a replayed publish from another file under the same name
            storage()
                    .createFrom(
                            BlobInfo.newBuilder(id(temp))
                                    .setMetadata(Map.of(STAGED_AS, temp))
                                    .build(),
                            local);
        } catch (StorageException e) {
            throw failed("upload " + local + " to", temp, e);
        }
        Files.deleteIfExists(local);
        return new Staged(key, temp);
    }

    /**
     * Copies the staged object to the key with {@code ifGenerationMatch=0}, so it never replaces an
     * object already there (GCS answers 412), then deletes the staged object. An object under the
     * key is this very file when its {@value #STAGED_AS} metadata names the staged object, or (the
     * same bytes staged twice) its MD5 and size are the staged object's: a replayed commit, false.
     * Any other object there is a committed file of its own: fails, naming it, and leaves it.
     */
    @Override
    public boolean publish(Staged staged) throws IOException {
        return new Naming().publish(staged, name(staged.key()));
    }

    /** The metadata key that names the staged object a published object was copied from. */
    static final String STAGED_AS = "skippr-staged-as";

    /** Names staged objects by a create-only copy (see {@link #publish}). */
    private final class Naming extends TemporaryNamePublish {
        Naming() {
            super(describe());
        }

        @Override
        protected boolean isStaged(String temp) throws IOException {
            return object(temp) != null;
        }

        @Override
        protected boolean nameCreateOnly(String temp, String target) throws IOException {
            try {
                storage()
                        .copy(
                                Storage.CopyRequest.newBuilder()
                                        .setSource(id(temp))
                                        .setTarget(
                                                BlobInfo.newBuilder(id(target))
                                                        .setMetadata(Map.of(STAGED_AS, temp))
                                                        .build(),
                                                Storage.BlobTargetOption.doesNotExist())
                                        .build())
                        .getResult();
            } catch (StorageException e) {
                if (e.getCode() == 412 || e.getCode() == 404) {
                    // 404: another committer published and deleted it since we looked
                    return false;
                }
                throw failed("copy gs://" + bucket + "/" + temp + " to", target, e);
            }
            deleteObject(temp);
            return true;
        }

        @Override
        protected Occupant occupant(String temp, String target, boolean staged) throws IOException {
            Blob there = object(target);
            if (there == null) {
                return Occupant.NOTHING;
            }
            String from = there.getMetadata() == null ? null : there.getMetadata().get(STAGED_AS);
            Blob source = staged ? object(temp) : null;
            boolean same =
                    temp.equals(from)
                            || source != null
                                    && java.util.Objects.equals(source.getMd5(), there.getMd5())
                                    && java.util.Objects.equals(source.getSize(), there.getSize());
            return same ? Occupant.STAGED_FILE : Occupant.OTHER_FILE;
        }

        @Override
        protected void removeStaged(String temp) throws IOException {
            deleteObject(temp);
        }

        @Override
        protected String shown(String target) {
            return "gs://" + bucket + "/" + target;
        }

        @Override
        protected String about(String target) throws IOException {
            Blob there = object(target);
            return there == null
                    ? ""
                    : " (generation " + there.getGeneration() + ", " + there.getSize() + " bytes)";
        }
    }

    /** The object named {@code name}; null if there is none. */
    private Blob object(String name) throws IOException {
        try {
            return storage().get(id(name));
        } catch (StorageException e) {
            throw failed("read", name, e);
        }
    }

    @Override
    public void discard(Staged staged) throws IOException {
        deleteObject(staged.token());
    }

    @Override
    public void discardStaged(String owner) throws IOException {
        for (String name : names(staging() + owner + "/")) {
            deleteObject(name);
        }
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        String name = name(key);
        try {
            storage().create(BlobInfo.newBuilder(id(name)).build(), bytes);
        } catch (StorageException e) {
            throw failed("write", name, e);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        String name = name(key);
        try {
            return storage().readAllBytes(id(name));
        } catch (StorageException e) {
            throw failed("read", name, e);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        String name = name(key);
        try {
            return storage().get(id(name)) != null;
        } catch (StorageException e) {
            throw failed("check", name, e);
        }
    }

    @Override
    public List<String> list(String keyPrefix) throws IOException {
        String root = prefix.isEmpty() ? "" : prefix + "/";
        return names(root + keyPrefix).stream()
                .map(n -> n.substring(root.length()))
                .filter(k -> !k.startsWith(".") && !k.contains("/."))
                .sorted()
                .toList();
    }

    /** Every object name that starts with {@code namePrefix}. */
    private List<String> names(String namePrefix) throws IOException {
        List<String> names = new ArrayList<>();
        try {
            for (Blob blob :
                    storage()
                            .list(bucket, Storage.BlobListOption.prefix(namePrefix))
                            .iterateAll()) {
                names.add(blob.getName());
            }
        } catch (StorageException e) {
            throw failed("list", namePrefix + "*", e);
        }
        return names;
    }

    @Override
    public void delete(String key) throws IOException {
        deleteObject(name(key));
    }

    private void deleteObject(String name) throws IOException {
        try {
            storage().delete(id(name));
        } catch (StorageException e) {
            if (e.getCode() != 404) {
                throw failed("delete", name, e);
            }
        }
    }

    @Override
    public void download(String key, Path local) throws IOException {
        String name = name(key);
        try {
            if (storage().get(id(name)) == null) {
                throw new NoSuchFileException("gs://" + bucket + "/" + name);
            }
            storage().downloadTo(id(name), local);
        } catch (StorageException e) {
            throw failed("download", name, e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (storage != null) {
            try {
                storage.close();
            } catch (Exception e) {
                throw new IOException("cannot close the GCS client of " + describe(), e);
            } finally {
                storage = null;
            }
        }
    }

    /**
     * An error naming the object and, for a refusal, the permission to grant; a missing object is a
     * {@link NoSuchFileException}.
     */
    private IOException failed(String what, String name, StorageException e) {
        String object = "gs://" + bucket + "/" + name;
        String message = "GCS: cannot " + what + " " + object + ": " + reason(e);
        if (e.getCode() == 404) {
            NoSuchFileException missing = new NoSuchFileException(message);
            missing.initCause(e);
            return missing;
        }
        return new IOException(message, e);
    }

    private synchronized String endpoint() {
        if (storage != null) {
            return storage.getOptions().getHost();
        }
        return endpoint == null ? "its endpoint" : endpoint.url();
    }

    private String reason(StorageException e) {
        return switch (e.getCode()) {
            case 401 ->
                    "not authenticated (check credentials_file or the application default"
                            + " credentials): "
                            + e.getMessage();
            case 403 ->
                    "permission denied (the account needs the storage.objects.create, get,"
                            + " list and delete permissions on bucket "
                            + bucket
                            + ", e.g. role Storage Object Admin): "
                            + e.getMessage();
            case 404 -> "not found (does bucket " + bucket + " exist?): " + e.getMessage();
            case 0 -> "cannot reach Google Cloud Storage at " + endpoint() + ": " + e.getMessage();
            default -> e.getMessage();
        };
    }
}
