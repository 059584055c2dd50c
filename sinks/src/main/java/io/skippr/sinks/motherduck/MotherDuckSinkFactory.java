package io.skippr.sinks.motherduck;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.duckdb.DuckDbDatabase;
import io.skippr.sinks.duckdb.DuckDbSinkFactory;
import io.skippr.sinks.sql.SqlSinks;
import java.util.Map;

/**
 * The {@code MotherDuck} data sink: the DuckDB sink over {@code md:<database>} (see {@code
 * docs/connectors/motherduck.md}; untested against the service).
 */
public final class MotherDuckSinkFactory implements SinkFactory, KeepsDeadletters {
    @Override
    public String kind() {
        return "MotherDuck";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return DuckDbSinkFactory.sink(database(s), context, schema(s));
    }

    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.committedPositions(database(s), context, schema(s));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        return SqlSinks.forgetPositions(database(s), context, schema(s));
    }

    private static DuckDbDatabase database(ResolvedSettings s) {
        return MotherDuckDatabases.of(s.requireString("database"), s.secret("token").orElse(null));
    }

    private static String schema(ResolvedSettings s) {
        return s.string("schema").orElse("main");
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.SqlTable(
                database(context.settings()), schema(context.settings()));
    }
}
