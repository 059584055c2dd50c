package io.skippr.sinks.azureblob;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Azurite server that {@code scripts/lib/azurite.sh} starts ({@code SKIPPR_TEST_AZURE_*}), and
 * the containers a test made in it, dropped by {@link #close}. Without the server the tests fail,
 * never skip.
 */
final class TestAzurite implements AutoCloseable {
    private final List<BlobContainerClient> containers = new ArrayList<>();

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: this test needs the Azurite server that"
                            + " scripts/lib/azurite.sh starts (az_install; az_start)");
        }
        return value;
    }

    static String endpoint() {
        return env("SKIPPR_TEST_AZURE_ENDPOINT");
    }

    static String account() {
        return env("SKIPPR_TEST_AZURE_ACCOUNT");
    }

    static String key() {
        return env("SKIPPR_TEST_AZURE_KEY");
    }

    /** A new, empty container. */
    BlobContainerClient container() {
        BlobContainerClient container =
                new BlobServiceClientBuilder()
                        .endpoint(endpoint())
                        .credential(new StorageSharedKeyCredential(account(), key()))
                        .buildClient()
                        .getBlobContainerClient(
                                "skippr-it-"
                                        + Long.toHexString(
                                                ThreadLocalRandom.current().nextLong() >>> 8));
        container.create();
        containers.add(container);
        return container;
    }

    @Override
    public void close() {
        containers.forEach(BlobContainerClient::deleteIfExists);
        containers.clear();
    }
}
