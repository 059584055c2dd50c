package io.skippr.sinks.postgres;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.WriteMode;

/**
 * The {@code Postgres} data sink: exactly-once into a PostgreSQL schema, through binary COPY into
 * staging tables (or, for bounded append runs, prepared transactions) and one transaction per
 * commit (see {@code docs/connectors/postgres.md}).
 */
public final class PostgresSinkFactory implements SinkFactory {
    @Override
    public String kind() {
        return "Postgres";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        PostgresDatabase database =
                new PostgresDatabase(
                        s.requireString("host"),
                        s.integer("port").orElse(5432L).intValue(),
                        s.requireString("database"),
                        s.requireString("user"),
                        s.secret("password").orElse(null),
                        s.string("sslmode").orElse(null),
                        s.string("sslrootcert").orElse(null));
        return SqlSinks.sink(
                SqlSinks.prepare(
                        database,
                        context.pipeline(),
                        context.entry(),
                        s.string("schema").orElse("public"),
                        context.bounded(),
                        WriteMode.of(context.writeMode()),
                        context.deadletterRun()),
                new PostgresRowCheck(),
                context);
    }
}
