package io.skippr.sinks.azureblob;

import io.skippr.config.ConfigException;
import io.skippr.config.Secret;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.FileSinks;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.StoresFiles;
import java.util.Map;

/** The AzureBlob data sink: exactly-once files in an Azure Blob Storage container. */
public final class AzureBlobSinkFactory implements SinkFactory, KeepsDeadletters, StoresFiles {
    @Override
    public String kind() {
        return "AzureBlob";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("AzureBlob");
        return FileSinks.sink(context, store(context));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return FileSinks.committedPositions(store(context), context.pipeline());
    }

    private static AzureBlobFileStore store(SinkContext context) {
        ResolvedSettings settings = context.settings();
        Secret key =
                settings.secret("account_key")
                        .orElseThrow(
                                () ->
                                        ConfigException.of(
                                                "skippr.yml",
                                                "data_sinks."
                                                        + context.entry()
                                                        + ".account_key: not set; Skippr does not"
                                                        + " use the Azure credential chain yet, so"
                                                        + " give the storage account's key"));
        return new AzureBlobFileStore(
                settings.requireString("account_name"),
                key,
                settings.requireString("container"),
                settings.string("prefix").orElse(null),
                settings.string("endpoint").orElse(null));
    }

    @Override
    public FileStore files(SinkContext context) {
        return store(context);
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.Files(
                store(context),
                FileFormat.of(context.settings().string("format").orElse("parquet")));
    }
}
