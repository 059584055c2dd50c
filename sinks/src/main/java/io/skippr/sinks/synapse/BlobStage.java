package io.skippr.sinks.synapse;

import com.azure.core.exception.AzureException;
import com.azure.core.util.BinaryData;
import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobContainerClientBuilder;
import com.azure.storage.blob.models.BlobStorageException;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.blob.options.BlockBlobSimpleUploadOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.skippr.config.Secret;
import io.skippr.sinks.staged.Stage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A stage in an Azure Blob Storage container, with the storage account's shared key: where the
 * Synapse sink puts Parquet files for {@code COPY INTO} to read. Blob metadata names must be C#
 * identifiers, so a {@code -} in a metadata key is stored as {@code _} and read back as {@code -}.
 * The key is only handed to the SDK; {@link #toString()} names the endpoint and container.
 */
public final class BlobStage implements Stage {
    private static final long serialVersionUID = 1L;

    /** Five tries, 0.5 s apart and doubling up to 2 s, as the AzureBlob sink retries. */
    private static final RequestRetryOptions RETRIES =
            new RequestRetryOptions(
                    RetryPolicyType.EXPONENTIAL, 5, (Integer) null, 500L, 2000L, null);

    private final String account;
    private final Secret key;
    private final String container;
    private final String endpoint;
    private transient BlobContainerClient client;

    /**
     * @param endpoint the blob service URL, or null for {@code
     *     https://<account>.blob.core.windows.net}
     */
    public BlobStage(String account, Secret key, String container, String endpoint) {
        this.account = account;
        this.key = key;
        this.container = container;
        this.endpoint =
                endpoint == null || endpoint.isBlank()
                        ? "https://" + account + ".blob.core.windows.net"
                        : endpoint.replaceAll("/+$", "");
    }

    /** The storage account's key, for the COPY INTO that reads the staged files. */
    String accountKey() {
        return key.reveal();
    }

    private synchronized BlobContainerClient client() {
        if (client == null) {
            client =
                    new BlobContainerClientBuilder()
                            .endpoint(endpoint)
                            .containerName(container)
                            .credential(new StorageSharedKeyCredential(account, key.reveal()))
                            .retryOptions(RETRIES)
                            .buildClient();
        }
        return client;
    }

    @Override
    public void put(String name, Path file, Map<String, String> metadata) throws IOException {
        upload(name, BinaryData.fromFile(file), metadata);
    }

    @Override
    public void put(String name, byte[] bytes, Map<String, String> metadata) throws IOException {
        upload(name, BinaryData.fromBytes(bytes), metadata);
    }

    /** One Put Blob, replacing a blob of that name: the blob appears whole or not at all. */
    private void upload(String name, BinaryData data, Map<String, String> metadata)
            throws IOException {
        try {
            client().getBlobClient(name)
                    .getBlockBlobClient()
                    .uploadWithResponse(
                            new BlockBlobSimpleUploadOptions(data).setMetadata(stored(metadata)),
                            null,
                            null);
        } catch (AzureException | java.io.UncheckedIOException e) {
            throw new IOException("uploading " + url(name) + " failed: " + e.getMessage(), e);
        }
    }

    /** The content of {@code name}; null when there is no such blob. */
    byte[] get(String name) throws IOException {
        try {
            return client().getBlobClient(name).downloadContent().toBytes();
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 404) {
                return null;
            }
            throw failure("reading", name, e);
        } catch (AzureException e) {
            throw failure("reading", name, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        try {
            List<String> names = new ArrayList<>();
            client().listBlobs(new ListBlobsOptions().setPrefix(prefix), null)
                    .forEach(b -> names.add(b.getName()));
            names.sort(null);
            return names;
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 404) {
                return List.of();
            }
            throw failure("listing", prefix, e);
        } catch (AzureException e) {
            throw failure("listing", prefix, e);
        }
    }

    @Override
    public Map<String, String> metadata(String name) throws IOException {
        try {
            Map<String, String> stored = client().getBlobClient(name).getProperties().getMetadata();
            Map<String, String> out = new LinkedHashMap<>();
            if (stored != null) {
                stored.forEach((k, v) -> out.put(k.replace('_', '-'), v));
            }
            return out;
        } catch (BlobStorageException e) {
            if (e.getStatusCode() == 404) {
                return null;
            }
            throw failure("reading", name, e);
        } catch (AzureException e) {
            throw failure("reading", name, e);
        }
    }

    @Override
    public void delete(List<String> names) throws IOException {
        for (String name : names) {
            try {
                client().getBlobClient(name).deleteIfExists();
            } catch (AzureException e) {
                throw failure("deleting", name, e);
            }
        }
    }

    /** {@code <endpoint>/<container>/<name>}, the URL COPY INTO reads. */
    @Override
    public String url(String name) {
        return endpoint + "/" + container + "/" + name;
    }

    private static Map<String, String> stored(Map<String, String> metadata) {
        Map<String, String> out = new LinkedHashMap<>();
        metadata.forEach((k, v) -> out.put(k.replace('-', '_'), v));
        return out;
    }

    private IOException failure(String doing, String name, AzureException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = message.indexOf('\n');
        return new IOException(
                doing
                        + " "
                        + url(name)
                        + " failed: "
                        + (nl < 0 ? message : message.substring(0, nl)),
                e);
    }

    @Override
    public String toString() {
        return "BlobStage{" + endpoint + "/" + container + "}";
    }
}
