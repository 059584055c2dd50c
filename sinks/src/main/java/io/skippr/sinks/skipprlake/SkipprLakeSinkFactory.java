package io.skippr.sinks.skipprlake;

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
 * The SkipprLake data sink: exactly-once Iceberg tables under a warehouse path, in an embedded or
 * PostgreSQL JDBC catalog. Append, or merge on the streams' primary keys with equality deletes
 * (write_mode merge).
 */
public final class SkipprLakeSinkFactory implements SinkFactory, KeepsDeadletters {
    public static final String KIND = "SkipprLake";

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public SkipprSink create(SinkContext context) {
        boolean merge = context.requireAppendOrMerge(KIND, true);
        IcebergSinkSettings settings =
                IcebergSinks.prepare(
                        settings(
                                        context.pipeline(),
                                        context.entry(),
                                        context.settings(),
                                        context.bounded())
                                .deadletters(context.deadletterRun())
                                .merging(merge));
        return IcebergSinks.sink(settings, context.failPoint());
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return IcebergSinks.committedPositions(
                settings(context.pipeline(), context.entry(), context.settings(), true));
    }

    /** The sink settings of a SkipprLake entry (run number still to be prepared). */
    public static IcebergSinkSettings settings(
            String pipeline, String entry, ResolvedSettings settings, boolean bounded) {
        long targetMb = settings.integer("target_file_size_mb").orElse(128L);
        if (targetMb < 1) {
            throw io.skippr.config.ConfigException.of(
                    "skippr.yml",
                    "data_sinks."
                            + entry
                            + ".SkipprLake.target_file_size_mb: expected at least 1, found "
                            + targetMb);
        }
        return new IcebergSinkSettings(
                SkipprLakeCatalog.of("data_sinks", entry, settings),
                settings.string("namespace").orElse("skippr"),
                pipeline,
                entry,
                0,
                bounded,
                targetMb * 1024 * 1024,
                settings.bool("compact"));
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.LakeTable(
                SkipprLakeCatalog.of("deadletter_sinks", context.entry(), context.settings()),
                context.settings().string("namespace").orElse("skippr"));
    }
}
