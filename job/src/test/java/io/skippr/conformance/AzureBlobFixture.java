package io.skippr.conformance;

import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import io.skippr.config.Secret;
import io.skippr.sinks.azureblob.AzureBlobFileStore;
import io.skippr.sinks.files.FileStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/** The AzureBlob sink against the Azurite that {@code scripts/test} starts: a container each. */
final class AzureBlobFixture extends FileStoreFixture {
    private final String container = "skippr-kit-" + UUID.randomUUID().toString().substring(0, 8);

    AzureBlobFixture(String format) {
        super(format);
        new BlobServiceClientBuilder()
                .endpoint(SourceTable.env("SKIPPR_TEST_AZURE_ENDPOINT"))
                .credential(
                        new StorageSharedKeyCredential(
                                SourceTable.env("SKIPPR_TEST_AZURE_ACCOUNT"),
                                SourceTable.env("SKIPPR_TEST_AZURE_KEY")))
                .buildClient()
                .getBlobContainerClient(container)
                .create();
    }

    @Override
    public String kind() {
        return "AzureBlob";
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    AzureBlob:\n      account_name: "
                + SourceTable.env("SKIPPR_TEST_AZURE_ACCOUNT")
                + "\n      account_key: ${KIT_AZURE_KEY}\n      container: "
                + container
                + "\n      prefix: lake/raw\n      endpoint: "
                + SourceTable.env("SKIPPR_TEST_AZURE_ENDPOINT")
                + "\n      format: "
                + format
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_AZURE_KEY", SourceTable.env("SKIPPR_TEST_AZURE_KEY"));
    }

    @Override
    FileStore store(Path dir) {
        return new AzureBlobFileStore(
                SourceTable.env("SKIPPR_TEST_AZURE_ACCOUNT"),
                new Secret(SourceTable.env("SKIPPR_TEST_AZURE_KEY")),
                container,
                "lake/raw",
                SourceTable.env("SKIPPR_TEST_AZURE_ENDPOINT"));
    }
}
