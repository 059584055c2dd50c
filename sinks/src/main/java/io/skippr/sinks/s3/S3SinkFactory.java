package io.skippr.sinks.s3;

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
 * The S3 data sink: exactly-once files in an S3 bucket or an S3-compatible store, with credentials
 * from the AWS SDK's default chain.
 */
public final class S3SinkFactory implements SinkFactory, KeepsDeadletters, StoresFiles {
    @Override
    public String kind() {
        return "S3";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("S3");
        return FileSinks.sink(context, store(context));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return FileSinks.committedPositions(store(context), context.pipeline());
    }

    private static S3FileStore store(SinkContext context) {
        ResolvedSettings settings = context.settings();
        return new S3FileStore(
                connection(context, settings),
                settings.requireString("s3_bucket"),
                settings.string("s3_prefix").orElse(""));
    }

    private static S3Connection connection(SinkContext context, ResolvedSettings settings) {
        try {
            return S3Connection.of(
                    settings.string("region").orElse(null),
                    settings.string("endpoint").orElse(null),
                    settings.bool("path_style_access"));
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml",
                    "data_sinks." + context.entry() + ".S3.endpoint: " + e.getMessage());
        }
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
