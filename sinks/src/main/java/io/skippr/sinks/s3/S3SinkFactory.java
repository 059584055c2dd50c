package io.skippr.sinks.s3;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.files.FileSinks;

/**
 * The S3 data sink: exactly-once files in an S3 bucket or an S3-compatible store, with credentials
 * from the AWS SDK's default chain.
 */
public final class S3SinkFactory implements SinkFactory {
    @Override
    public String kind() {
        return "S3";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("S3");
        ResolvedSettings settings = context.settings();
        S3FileStore store =
                new S3FileStore(
                        connection(context, settings),
                        settings.requireString("s3_bucket"),
                        settings.string("s3_prefix").orElse(""));
        return FileSinks.sink(context, store);
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
}
