package io.skippr.sinks.gcs;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.files.FileSinks;

/**
 * The GCS data sink: exactly-once files in a Google Cloud Storage bucket, with a service account
 * key file or the application default credentials.
 */
public final class GcsSinkFactory implements SinkFactory {
    @Override
    public String kind() {
        return "GCS";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("GCS");
        ResolvedSettings settings = context.settings();
        GcsFileStore store =
                new GcsFileStore(
                        settings.requireString("bucket"),
                        settings.string("prefix").orElse(null),
                        settings.string("project_id").orElse(null),
                        settings.string("credentials_file").orElse(null));
        return FileSinks.sink(context, store);
    }
}
