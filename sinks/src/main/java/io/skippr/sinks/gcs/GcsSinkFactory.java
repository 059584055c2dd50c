package io.skippr.sinks.gcs;

import io.skippr.config.ConfigException;
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

/**
 * The GCS data sink: exactly-once files in a Google Cloud Storage bucket, with a service account
 * key file or the application default credentials; or, with a plain-http {@code endpoint} on this
 * machine, without credentials ({@link GcsEndpoint}).
 */
public final class GcsSinkFactory implements SinkFactory, KeepsDeadletters, StoresFiles {
    @Override
    public String kind() {
        return "GCS";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("GCS");
        return FileSinks.sink(context, store(context, context.settings()));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return FileSinks.committedPositions(store(context, context.settings()), context.pipeline());
    }

    private static GcsFileStore store(SinkContext context, ResolvedSettings settings) {
        String where = "data_sinks." + context.entry() + ".GCS.";
        String endpoint = settings.string("endpoint").orElse(null);
        String credentialsFile = settings.string("credentials_file").orElse(null);
        GcsEndpoint parsed;
        try {
            parsed = GcsEndpoint.parse(endpoint);
        } catch (IllegalArgumentException e) {
            throw ConfigException.of("skippr.yml", where + "endpoint: " + e.getMessage());
        }
        if (parsed != null && parsed.local() && credentialsFile != null) {
            throw ConfigException.of(
                    "skippr.yml",
                    where
                            + "credentials_file: never sent to the plain-http endpoint "
                            + parsed.url()
                            + "; leave it out, or use https");
        }
        return new GcsFileStore(
                settings.requireString("bucket"),
                settings.string("prefix").orElse(null),
                settings.string("project_id").orElse(null),
                credentialsFile,
                endpoint);
    }

    @Override
    public FileStore files(SinkContext context) {
        return store(context, context.settings());
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.Files(
                store(context, context.settings()),
                FileFormat.of(context.settings().string("format").orElse("parquet")));
    }
}
