package io.skippr.sinks.databricks;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.sql.SqlSinks;
import java.util.Map;

/**
 * The {@code Databricks} data sink: Delta tables in Unity Catalog through a SQL warehouse, with
 * Parquet staged in a volume and {@code COPY INTO}, every commit step repeatable (see {@code
 * docs/connectors/databricks.md}).
 */
public final class DatabricksSinkFactory implements SinkFactory, KeepsDeadletters {
    @Override
    public String kind() {
        return "Databricks";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.sink(
                database(context),
                s.string("schema").orElse("default").toLowerCase(java.util.Locale.ROOT),
                new DatabricksRowCheck(),
                context);
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.committedPositions(
                database(context),
                context,
                s.string("schema").orElse("default").toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.forgetPositions(
                database(context),
                context,
                s.string("schema").orElse("default").toLowerCase(java.util.Locale.ROOT));
    }

    private static DatabricksDatabase database(SinkContext context) {
        ResolvedSettings s = context.settings();
        DatabricksWorkspace workspace;
        try {
            workspace =
                    DatabricksWorkspace.of(
                            s.requireString("server_hostname"),
                            s.requireString("http_path"),
                            s.secret("access_token").orElseThrow(),
                            s.string("endpoint").orElse(null));
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml",
                    "data_sinks." + context.entry() + ".Databricks.http_path: " + e.getMessage());
        }
        String catalog = s.string("catalog").orElse("main").toLowerCase(java.util.Locale.ROOT);
        String schema = s.string("schema").orElse("default").toLowerCase(java.util.Locale.ROOT);
        String volume =
                s.string("volume").orElse("skippr_staging").toLowerCase(java.util.Locale.ROOT);
        DatabricksDatabase database =
                new DatabricksDatabase(
                        workspace, catalog, new VolumeStage(workspace, catalog, schema, volume));
        return database;
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context),
                context.settings()
                        .string("schema")
                        .orElse("default")
                        .toLowerCase(java.util.Locale.ROOT));
    }
}
