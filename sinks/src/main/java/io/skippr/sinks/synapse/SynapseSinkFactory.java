package io.skippr.sinks.synapse;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.sql.SqlSinks;
import java.util.Map;

/**
 * The {@code Synapse} data sink: exactly-once into a schema of a Synapse dedicated SQL pool,
 * through Parquet staged in Azure Blob Storage and one transaction per commit that runs COPY INTO
 * on exactly the staged files, applies the write mode and records the marker row; the commit's DDL
 * runs before that transaction, as Synapse requires (see {@code docs/connectors/synapse.md}).
 */
public final class SynapseSinkFactory implements SinkFactory, KeepsDeadletters {
    @Override
    public String kind() {
        return "Synapse";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.sink(
                database(context),
                s.string("schema").orElse("dbo"),
                new SynapseRowCheck(),
                context);
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.committedPositions(
                database(context), context, s.string("schema").orElse("dbo"));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.forgetPositions(
                database(context), context, s.string("schema").orElse("dbo"));
    }

    private static SynapseDatabase database(SinkContext context) {
        ResolvedSettings s = context.settings();
        BlobStage stage =
                new BlobStage(
                        s.requireString("storage_account"),
                        s.secret("storage_account_key").orElseThrow(),
                        s.requireString("storage_container"),
                        s.string("storage_endpoint").orElse(null));
        SynapseDatabase database =
                new SynapseDatabase(
                        s.requireString("host"),
                        s.integer("port").orElse(1433L).intValue(),
                        s.requireString("database"),
                        s.requireString("user"),
                        s.secret("password").orElse(null),
                        s.bool("encrypt"),
                        stage,
                        s.string("distribution").orElse("round_robin").equals("hash"));
        return database;
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context), context.settings().string("schema").orElse("dbo"));
    }
}
