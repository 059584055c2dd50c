package io.skippr.sinks.azureblob;

import com.azure.core.util.BinaryData;
import com.azure.core.util.Context;
import com.azure.storage.blob.BlobClient;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobItem;
import com.azure.storage.blob.models.BlobListDetails;
import com.azure.storage.blob.models.BlobRequestConditions;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.Block;
import com.azure.storage.blob.models.BlockList;
import com.azure.storage.blob.models.BlockListType;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobCommitBlockListOptions;
import com.azure.storage.blob.specialized.BlockBlobClient;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.skippr.config.Secret;
import io.skippr.sinks.files.FileStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A container (and optional name prefix) in Azure Blob Storage, reached with the account key.
 *
 * <p>{@link #stage} uploads a file's 4 MiB blocks to its final blob without committing them (Put
 * Block): the blob does not show until {@link #publish} commits the block list (Put Block List),
 * which makes it appear whole at once. Block ids come from the file's digest ({@link
 * StagedBlocks}), so a blob whose committed list equals them is this file, already published.
 *
 * <p>Azure cannot delete single uncommitted blocks: they vanish when their blob is committed or
 * deleted, or after 7 days without activity. So {@link #discard} and {@link #discardStaged} delete
 * blobs that have uncommitted blocks only (no published version); staged blocks on top of an
 * already published blob of the same name are left to Azure (the next commit or 7 days drops them).
 * An empty file has no blocks at all: publishing it commits an empty list, and discarding it has
 * nothing to drop. Neither is ever called concurrently with a publish of the same key.
 */
public final class AzureBlobFileStore implements FileStore {
    private static final long serialVersionUID = 1L;

    private final String account;
    private final Secret key;
    private final String container;
    private final String prefix;
    private final String endpoint;
    private transient volatile BlobContainerClient client;

    /**
     * @param key the account key (the Azure credential chain is not supported yet)
     * @param prefix blob name prefix without a trailing slash, or null or empty for the whole
     *     container
     * @param endpoint the blob service URL, or null for {@code
     *     https://<account>.blob.core.windows.net}
     */
    public AzureBlobFileStore(
            String account, Secret key, String container, String prefix, String endpoint) {
        this.account = account;
        this.key = Objects.requireNonNull(key, "account_key");
        this.container = container;
        this.prefix = FileStore.prefix(prefix);
        this.endpoint =
                endpoint == null || endpoint.isBlank()
                        ? "https://" + account + ".blob.core.windows.net"
                        : endpoint.replaceAll("/+$", "");
    }

    @Override
    public String describe() {
        return endpoint + "/" + container + (prefix.isEmpty() ? "" : "/" + prefix);
    }

    /** The blob name of a key: the prefix, a slash, the key. */
    String blobName(String key) {
        return prefix.isEmpty() ? key : prefix + "/" + key;
    }

    /**
     * Five tries, 0.5 s apart and doubling up to 2 s: an unreachable endpoint fails in seconds, not
     * the SDK's minute (4 s doubling), and Flink's restarts, with their own backoff, retry longer.
     */
    private static final com.azure.storage.common.policy.RequestRetryOptions RETRIES =
            new com.azure.storage.common.policy.RequestRetryOptions(
                    com.azure.storage.common.policy.RetryPolicyType.EXPONENTIAL,
                    5,
                    (Integer) null,
                    500L,
                    2000L,
                    null);

    private BlobContainerClient client() {
        BlobContainerClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client =
                            new BlobContainerClientBuilder()
                                    .endpoint(endpoint)
                                    .containerName(container)
                                    .credential(
                                            new StorageSharedKeyCredential(account, key.reveal()))
                                    .retryOptions(RETRIES)
                                    .buildClient();
                }
                c = client;
            }
        }
        return c;
    }

    private BlobClient blob(String key) {
        return client().getBlobClient(blobName(key));
    }

    @Override
    public Staged stage(Path local, String key) throws IOException {
        StagedBlocks blocks = StagedBlocks.of(local);
        BlockBlobClient blob = blob(key).getBlockBlobClient();
        byte[] buf = new byte[StagedBlocks.BLOCK_SIZE];
        try (InputStream in = Files.newInputStream(local)) {
            for (int i = 0; i < blocks.count(); i++) {
                int n = in.readNBytes(buf, 0, buf.length);
                String id = blocks.id(i);
                call(
                        "stage block " + i + " of blob",
                        key,
                        () ->
                                blob.stageBlockWithResponse(
                                        id,
                                        new ByteArrayInputStream(buf, 0, n),
                                        n,
                                        md5(buf, n),
                                        null,
                                        null,
                                        null));
            }
        }
        Files.deleteIfExists(local);
        return new Staged(key, blocks.token());
    }

    @Override
    public boolean publish(Staged staged) throws IOException {
        StagedBlocks blocks = StagedBlocks.parse(staged.token());
        String key = staged.key();
        BlockBlobClient blob = blob(key).getBlockBlobClient();
        List<String> ids = blocks.ids();
        BlockList list = blockList(blob, key);
        if (blocks.count() > 0
                && !new HashSet<>(names(list.getUncommittedBlocks())).containsAll(ids)) {
            // not (or no longer) staged: published before, or lost
            if (exists(key)) {
                return alreadyThere(blob, key, ids);
            }
            throw new IOException(
                    "the staged blocks of blob "
                            + where(key)
                            + " are gone and it was never published: it was discarded or deleted,"
                            + " or more than 7 days passed since it was staged");
        }
        try {
            // If-None-Match: * — a publish never replaces a committed blob
            blob.commitBlockListWithResponse(
                    new BlockBlobCommitBlockListOptions(ids)
                            .setRequestConditions(new BlobRequestConditions().setIfNoneMatch("*")),
                    null,
                    Context.NONE);
            return true;
        } catch (BlobStorageException e) {
            String code = String.valueOf(e.getErrorCode());
            if (e.getStatusCode() == 409
                    || e.getStatusCode() == 412
                    || code.equals("BlobAlreadyExists")) {
                return alreadyThere(blob, key, ids);
            }
            if (code.equals("InvalidBlockList") && exists(key)) {
                return alreadyThere(
                        blob, key, ids); // the blocks went between listing and committing
            }
            throw failure("publish blob", key, e);
        } catch (RuntimeException e) {
            throw unreachable("publish blob", key, e);
        }
    }

    /**
     * False when the committed blob under {@code key} is the staged file (its committed block list
     * is the staged block ids, which name this file alone; for an empty file, an empty blob): a
     * replayed commit. Any other blob there is a committed file of its own: fails, naming it, and
     * leaves it as it is.
     */
    private boolean alreadyThere(BlockBlobClient blob, String key, List<String> ids)
            throws IOException {
        List<String> committed = names(blockList(blob, key).getCommittedBlocks());
        if (!ids.isEmpty() && committed.equals(ids)) {
            return false;
        }
        long size =
                call("read the properties of blob", key, () -> blob.getProperties().getBlobSize());
        if (ids.isEmpty() && size == 0) {
            return false;
        }
        throw new IOException(
                "refusing to publish blob "
                        + where(key)
                        + ": it already holds a committed blob ("
                        + size
                        + " bytes, "
                        + committed.size()
                        + " blocks) that is not the staged file ("
                        + ids.size()
                        + " blocks), and a publish never replaces a committed file. A file name"
                        + " was used twice, or something else wrote under the sink's prefix; the"
                        + " blob is left as it is");
    }

    /** The blob's committed and uncommitted blocks; none when it has neither. */
    private BlockList blockList(BlockBlobClient blob, String key) throws IOException {
        try {
            return blob.listBlocks(BlockListType.ALL);
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 404 && !containerMissing(e)) {
                return new BlockList()
                        .setCommittedBlocks(List.of())
                        .setUncommittedBlocks(List.of());
            }
            throw failure("list the blocks of blob", key, e);
        } catch (RuntimeException e) {
            throw unreachable("list the blocks of blob", key, e);
        }
    }

    private static List<String> names(List<Block> blocks) {
        return blocks == null ? List.of() : blocks.stream().map(Block::getName).toList();
    }

    @Override
    public void discard(Staged staged) throws IOException {
        dropStaged(staged.key());
    }

    /** Deletes {@code key}'s blob if it has staged blocks and no published version. */
    private void dropStaged(String key) throws IOException {
        if (exists(key)) {
            return; // published: its staged blocks, if any, go with the next commit or in 7 days
        }
        try {
            blob(key).delete();
        } catch (BlobStorageException e) {
            if (e.getStatusCode() != 404 || containerMissing(e)) {
                throw failure("discard the staged blocks of blob", key, e);
            }
        } catch (RuntimeException e) {
            throw unreachable("discard the staged blocks of blob", key, e);
        }
    }

    @Override
    public void discardStaged(String owner) throws IOException {
        Set<String> published = new HashSet<>(list(""));
        ListBlobsOptions options =
                new ListBlobsOptions()
                        .setPrefix(blobName(""))
                        .setDetails(new BlobListDetails().setRetrieveUncommittedBlobs(true));
        List<String> staged =
                call(
                        "list staged blobs under",
                        "",
                        () ->
                                client().listBlobs(options, null).stream()
                                        .map(BlobItem::getName)
                                        .map(this::keyOf)
                                        .filter(k -> !published.contains(k))
                                        .filter(k -> FileStore.owner(k).equals(owner))
                                        .toList());
        for (String key : staged) {
            dropStaged(key);
        }
    }

    @Override
    public void put(String key, byte[] bytes) throws IOException {
        call(
                "write blob",
                key,
                () -> {
                    blob(key).upload(BinaryData.fromBytes(bytes), true); // one Put Blob: atomic
                    return null;
                });
    }

    @Override
    public byte[] get(String key) throws IOException {
        try {
            return blob(key).downloadContent().toBytes();
        } catch (BlobStorageException e) {
            throw missingOr("read blob", key, e);
        } catch (RuntimeException e) {
            throw unreachable("read blob", key, e);
        }
    }

    @Override
    public boolean exists(String key) throws IOException {
        return call("look up blob", key, () -> blob(key).exists());
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        ListBlobsOptions options = new ListBlobsOptions().setPrefix(blobName(prefix));
        return call(
                "list blobs under",
                prefix,
                () ->
                        client().listBlobs(options, null).stream()
                                .map(BlobItem::getName)
                                .map(this::keyOf)
                                .sorted()
                                .toList());
    }

    private String keyOf(String blobName) {
        return prefix.isEmpty() ? blobName : blobName.substring(prefix.length() + 1);
    }

    @Override
    public void delete(String key) throws IOException {
        call("delete blob", key, () -> blob(key).deleteIfExists());
    }

    @Override
    public void download(String key, Path local) throws IOException {
        try {
            blob(key).downloadToFile(local.toString(), true);
        } catch (BlobStorageException e) {
            throw missingOr("download blob", key, e);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RuntimeException e) {
            throw unreachable("download blob", key, e);
        }
    }

    @Override
    public void close() {
        client = null; // the SDK's clients hold no resources of their own to release
    }

    // --- errors in the user's terms; the key never appears (it never leaves this process) ---

    private interface Call<T> {
        T run();
    }

    private <T> T call(String action, String key, Call<T> call) throws IOException {
        try {
            return call.run();
        } catch (BlobStorageException e) {
            throw failure(action, key, e);
        } catch (RuntimeException e) {
            throw unreachable(action, key, e);
        }
    }

    private String where(String key) {
        return "'"
                + blobName(key)
                + "' in container '"
                + container
                + "' of account '"
                + account
                + "'";
    }

    private static boolean containerMissing(BlobStorageException e) {
        return "ContainerNotFound".equals(String.valueOf(e.getErrorCode()));
    }

    private IOException missingOr(String action, String key, BlobStorageException e) {
        if (e.getStatusCode() == 404 && !containerMissing(e)) {
            return new NoSuchFileException(describe() + "/" + key);
        }
        return failure(action, key, e);
    }

    IOException failure(String action, String key, BlobStorageException e) {
        String code = String.valueOf(e.getErrorCode());
        String what = action + " " + where(key);
        String message;
        if (e.getStatusCode() == 403) {
            // An account key may do anything, so a refusal means a wrong key (Azure says
            // AuthenticationFailed, Azurite AuthorizationFailure) or a firewall rule.
            message =
                    "Azure Blob Storage account '"
                            + account
                            + "' at "
                            + endpoint
                            + " refused to "
                            + what
                            + " (HTTP 403 "
                            + code
                            + "): check account_name and account_key, and that the account's"
                            + " network rules admit this host";
        } else if (containerMissing(e)) {
            message =
                    "container '"
                            + container
                            + "' does not exist in Azure Blob Storage account '"
                            + account
                            + "' ("
                            + endpoint
                            + "): create it first";
        } else {
            message =
                    "cannot "
                            + what
                            + ": HTTP "
                            + e.getStatusCode()
                            + " "
                            + code
                            + " from "
                            + endpoint;
        }
        return new IOException(message, e);
    }

    private IOException unreachable(String action, String key, RuntimeException e) {
        return new IOException(
                "cannot " + action + " " + where(key) + " at " + endpoint + ": " + e.getMessage(),
                e);
    }

    private static byte[] md5(byte[] buf, int n) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update(buf, 0, n);
            return md5.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has MD5", e);
        }
    }
}
