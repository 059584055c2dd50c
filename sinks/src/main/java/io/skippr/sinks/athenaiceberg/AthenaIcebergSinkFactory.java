package io.skippr.sinks.athenaiceberg;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.iceberg.IcebergSinkSettings;
import io.skippr.sinks.iceberg.IcebergSinks;
import java.util.Map;

/**
 * The Athena Iceberg data sink: exactly-once Iceberg tables on S3 in the Glue database {@code
 * glue_database_name}, through Skippr's Iceberg sink and AWS Glue's Iceberg catalog. Paired: its
 * schema sink holds the same settings (checked when skippr.yml is read) and is served by the data
 * sink's own schema changes. Append, or merge on the streams' primary keys with equality deletes
 * (write_mode merge).
 */
public final class AthenaIcebergSinkFactory implements SinkFactory, KeepsDeadletters {
    public static final String KIND = "AthenaIceberg";

    /** Data files roll at this size, Athena's recommended file size for Iceberg tables. */
    private static final long TARGET_FILE_BYTES = 128L * 1024 * 1024;

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public SkipprSink create(SinkContext context) {
        boolean merge = context.requireAppendOrMerge(KIND, true);
        return IcebergSinks.sink(
                IcebergSinks.prepare(settings(context).merging(merge)), context.failPoint());
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return IcebergSinks.committedPositions(settings(context));
    }

    private static IcebergSinkSettings settings(SinkContext context) {
        String at = "data_sinks." + context.entry() + "." + KIND;
        return new IcebergSinkSettings(
                AthenaIcebergCatalog.of(at, context.settings()),
                namespace(context.settings()),
                context.pipeline(),
                context.entry(),
                0,
                context.bounded(),
                TARGET_FILE_BYTES,
                false,
                context.deadletterRun());
    }

    /** The Iceberg namespace of the tables: the Glue database, lower-cased as Glue keeps it. */
    public static String namespace(ResolvedSettings settings) {
        return settings.requireString("glue_database_name").toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        IcebergSinkSettings settings = settings(context);
        return new KeptDeadletters.LakeTable(
                settings.catalog(), settings.icebergNamespace().toString());
    }
}
