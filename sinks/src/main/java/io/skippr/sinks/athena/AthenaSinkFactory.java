package io.skippr.sinks.athena;

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
import io.skippr.sinks.files.TableCatalog;
import io.skippr.sinks.glue.GlueSchemaSink;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.s3.S3FileStore;
import java.util.Map;

/**
 * The Athena data sink: exactly-once Parquet files in S3 in daily Hive-style {@code dt=}
 * partitions, with the tables and partitions kept in AWS Glue by the linked Glue schema sink before
 * any file that needs them is published. Without a schema sink it writes the files only. Athena
 * itself is never called: it reads what S3 and Glue hold.
 */
public final class AthenaSinkFactory implements SinkFactory, KeepsDeadletters {
    @Override
    public String kind() {
        return "Athena";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("Athena");
        return sink(context, store(context.settings()));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return FileSinks.committedPositions(store(context.settings()), context.pipeline());
    }

    private static S3FileStore store(ResolvedSettings settings) {
        return new S3FileStore(
                connection(settings),
                settings.requireString("s3_bucket"),
                settings.string("s3_prefix").orElse(""));
    }

    /** The sink writing into {@code store}, the S3 bucket and prefix of the entry. */
    static SkipprSink sink(SinkContext context, FileStore store) {
        TableCatalog catalog =
                context.schemaSink() == null
                        ? TableCatalog.NONE
                        : GlueSchemaSink.catalog(context.schemaSink(), context.settings());
        return FileSinks.sink(context, store, catalog);
    }

    /** With an {@code s3_endpoint} (an S3-compatible store), buckets are addressed in the path. */
    private static S3Connection connection(ResolvedSettings settings) {
        String endpoint = settings.string("s3_endpoint").orElse(null);
        try {
            return S3Connection.of(
                    settings.string("region").orElse(null), endpoint, endpoint != null);
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml", settings.entry().path() + ".s3_endpoint: " + e.getMessage());
        }
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.Files(
                store(context.settings()),
                FileFormat.of(context.settings().string("format").orElse("parquet")));
    }
}
