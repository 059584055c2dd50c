package io.skippr.sinks.snowflake;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.sql.SqlReadBack;
import io.skippr.sinks.sql.SqlSinks;
import java.util.Map;

/**
 * The {@code Snowflake} data sink: exactly-once into a Snowflake schema, through Parquet PUT to a
 * named internal stage and one explicit transaction per commit that COPYs exactly the staged files,
 * applies the write mode and records the marker row (see {@code docs/connectors/snowflake.md}).
 */
public final class SnowflakeSinkFactory implements SinkFactory, KeepsDeadletters, SqlReadBack {
    @Override
    public String kind() {
        return "Snowflake";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.sink(
                database(context),
                s.string("schema").orElse("PUBLIC"),
                new SnowflakeRowCheck(),
                context);
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.committedPositions(
                database(context), context, s.string("schema").orElse("PUBLIC"));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.forgetPositions(
                database(context), context, s.string("schema").orElse("PUBLIC"));
    }

    /**
     * The account as the sink logs in to it; verify only reads (the login's role decides what it
     * may do, and verify sends nothing but SELECTs).
     */
    @Override
    public SnowflakeDatabase readOnly(ResolvedSettings settings) {
        return database(settings);
    }

    @Override
    public String schema(ResolvedSettings settings) {
        return settings.string("schema").orElse("PUBLIC");
    }

    private static SnowflakeDatabase database(SinkContext context) {
        return database(context.settings());
    }

    private static SnowflakeDatabase database(ResolvedSettings s) {
        String schema = s.string("schema").orElse("PUBLIC");
        SnowflakeLogin login =
                new SnowflakeLogin(
                        s.requireString("account"),
                        s.string("endpoint").orElse(null),
                        s.requireString("user"),
                        s.secret("password").orElse(null),
                        s.string("private_key_file").orElse(null),
                        s.secret("private_key_passphrase").orElse(null),
                        s.requireString("database"),
                        s.string("warehouse").orElse(null),
                        s.string("role").orElse(null));
        SnowflakeDatabase database =
                new SnowflakeDatabase(
                        login,
                        new SnowflakeStage(
                                login,
                                schema,
                                s.string("stage").orElse(SnowflakeStage.DEFAULT_NAME)));
        return database;
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context), context.settings().string("schema").orElse("PUBLIC"));
    }
}
