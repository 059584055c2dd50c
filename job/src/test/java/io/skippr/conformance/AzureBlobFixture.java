package io.skippr.conformance;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.blob.models.ListBlobsOptions;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.skippr.config.Secret;
import io.skippr.config.catalog.Guarantee;
import io.skippr.job.TestEnv;
import io.skippr.sinks.azureblob.AzureBlobFileStore;
import io.skippr.sinks.files.FileStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The AzureBlob sink against the Azurite that {@code scripts/test} starts: a container each. */
final class AzureBlobFixture extends FileStoreFixture {
    private static String env(String name) {
        return TestEnv.require(name, "the Azurite server that scripts/test starts");
    }

    private final String container = "skippr-kit-" + UUID.randomUUID().toString().substring(0, 8);

    AzureBlobFixture(String format) {
        super(format);
        client().create();
    }

    private BlobContainerClient client() {
        return new BlobServiceClientBuilder()
                .endpoint(env("SKIPPR_TEST_AZURE_ENDPOINT"))
                .credential(
                        new StorageSharedKeyCredential(
                                env("SKIPPR_TEST_AZURE_ACCOUNT"), env("SKIPPR_TEST_AZURE_KEY")))
                .buildClient()
                .getBlobContainerClient(container);
    }

    /** Committed blobs, as any client lists them (blocks staged but not committed do not show). */
    @Override
    List<String> list(Path dir, String prefix) {
        return client()
                .listBlobs(new ListBlobsOptions().setPrefix("lake/raw/" + prefix), null)
                .stream()
                .map(b -> b.getName().substring("lake/raw/".length()))
                .sorted()
                .toList();
    }

    @Override
    public String kind() {
        return "AzureBlob";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    AzureBlob:\n      account_name: "
                + env("SKIPPR_TEST_AZURE_ACCOUNT")
                + "\n      account_key: ${KIT_AZURE_KEY}\n      container: "
                + container
                + "\n      prefix: lake/raw\n      endpoint: "
                + env("SKIPPR_TEST_AZURE_ENDPOINT")
                + "\n      format: "
                + format
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_AZURE_KEY", env("SKIPPR_TEST_AZURE_KEY"));
    }

    @Override
    FileStore store(Path dir) {
        return new AzureBlobFileStore(
                env("SKIPPR_TEST_AZURE_ACCOUNT"),
                new Secret(env("SKIPPR_TEST_AZURE_KEY")),
                container,
                "lake/raw",
                env("SKIPPR_TEST_AZURE_ENDPOINT"));
    }
}
