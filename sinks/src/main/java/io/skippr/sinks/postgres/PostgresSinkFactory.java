package io.skippr.sinks.postgres;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlReadBack;
import io.skippr.sinks.sql.SqlSinks;
import java.util.Map;

/**
 * The {@code Postgres} data sink: exactly-once into a PostgreSQL schema, through binary COPY into
 * staging tables (or, for bounded append runs, prepared transactions) and one transaction per
 * commit (see {@code docs/connectors/postgres.md}).
 */
public final class PostgresSinkFactory implements SinkFactory, KeepsDeadletters, SqlReadBack {
    @Override
    public String kind() {
        return "Postgres";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.sink(database(s), schema(s), new PostgresRowCheck(), context);
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return SqlSinks.committedPositions(
                database(context.settings()), context, schema(context.settings()));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        return SqlSinks.forgetPositions(
                database(context.settings()), context, schema(context.settings()));
    }

    /** PostgreSQL is read in read-only transactions ({@code SET TRANSACTION READ ONLY}). */
    @Override
    public SqlDatabase readOnly(ResolvedSettings settings) {
        return database(settings);
    }

    @Override
    public String schema(ResolvedSettings s) {
        return s.string("schema").orElse("public");
    }

    private static PostgresDatabase database(ResolvedSettings s) {
        return new PostgresDatabase(
                s.requireString("host"),
                s.integer("port").orElse(5432L).intValue(),
                s.requireString("database"),
                s.requireString("user"),
                s.secret("password").orElse(null),
                s.string("sslmode").orElse(null),
                s.string("sslrootcert").orElse(null));
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context.settings()), schema(context.settings()));
    }
}
