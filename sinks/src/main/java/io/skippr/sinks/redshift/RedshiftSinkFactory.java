package io.skippr.sinks.redshift;

import io.skippr.config.ConfigException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.s3.S3Connection;
import io.skippr.sinks.sql.SqlReadBack;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.staged.S3Stage;
import java.util.Map;

/**
 * The {@code Redshift} data sink: exactly-once into a Redshift schema, through gzipped CSV staged
 * on S3 and one transaction per commit that COPYs exactly the staged files, applies the write mode
 * and records the marker row (see {@code docs/connectors/redshift.md}).
 */
public final class RedshiftSinkFactory implements SinkFactory, KeepsDeadletters, SqlReadBack {
    @Override
    public String kind() {
        return "Redshift";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.sink(
                database(context),
                s.string("schema").orElse("public"),
                new RedshiftRowCheck(),
                context);
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.committedPositions(
                database(context), context, s.string("schema").orElse("public"));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.forgetPositions(
                database(context), context, s.string("schema").orElse("public"));
    }

    /**
     * The cluster as the sink connects to it; verify only reads (Redshift has no read-only login).
     */
    @Override
    public RedshiftDatabase readOnly(ResolvedSettings settings) {
        return database(settings);
    }

    @Override
    public String schema(ResolvedSettings settings) {
        return settings.string("schema").orElse("public");
    }

    private static RedshiftDatabase database(SinkContext context) {
        return database(context.settings());
    }

    private static RedshiftDatabase database(ResolvedSettings s) {
        S3Connection s3;
        try {
            s3 =
                    S3Connection.of(
                            s.string("region").orElse(null),
                            s.string("endpoint").orElse(null),
                            s.bool("path_style_access"));
        } catch (IllegalArgumentException e) {
            throw ConfigException.of(
                    "skippr.yml",
                    "data_sinks." + s.entry().name() + ".Redshift.endpoint: " + e.getMessage());
        }
        RedshiftDatabase database =
                new RedshiftDatabase(
                        s.requireString("host"),
                        s.integer("port").orElse(5439L).intValue(),
                        s.requireString("database"),
                        s.requireString("user"),
                        s.secret("password").orElse(null),
                        s.bool("ssl"),
                        new S3Stage(s3, s.requireString("s3_bucket")),
                        new RedshiftCopy(
                                s.string("iam_role").orElse(null),
                                s.string("region").orElse(null)));
        return database;
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context), context.settings().string("schema").orElse("public"));
    }
}
