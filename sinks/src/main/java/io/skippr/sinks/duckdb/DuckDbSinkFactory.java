package io.skippr.sinks.duckdb;

import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlReadBack;
import io.skippr.sinks.sql.SqlSinks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The {@code DuckDB} data sink: exactly-once into a DuckDB database file, through appender-loaded
 * staging tables and one transaction per commit (see {@code docs/connectors/duckdb.md}). Its paired
 * DuckDB schema sink needs no operator of its own: the commit transaction creates and evolves the
 * tables.
 */
public final class DuckDbSinkFactory implements SinkFactory, KeepsDeadletters, SqlReadBack {
    @Override
    public String kind() {
        return "DuckDB";
    }

    @Override
    public SkipprSink create(SinkContext context) {
        ResolvedSettings s = context.settings();
        return sink(
                DuckDbDatabase.file(Path.of(s.requireString("path"))),
                context,
                s.string("schema").orElse("main"));
    }

    /** Nothing when the database file does not exist yet: opening it would create it. */
    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        Path file = Path.of(s.requireString("path"));
        if (!Files.exists(file)) {
            return Map.of();
        }
        return SqlSinks.committedPositions(
                DuckDbDatabase.file(file), context, s.string("schema").orElse("main"));
    }

    @Override
    public String forgetPositions(SinkContext context) {
        ResolvedSettings s = context.settings();
        Path file = Path.of(s.requireString("path"));
        if (!Files.exists(file)) {
            return "no commit records";
        }
        return SqlSinks.forgetPositions(
                DuckDbDatabase.file(file), context, s.string("schema").orElse("main"));
    }

    /** A DuckDB-family sink into {@code database}: shared by DuckDB and MotherDuck. */
    public static SkipprSink sink(DuckDbDatabase database, SinkContext context, String schema) {
        return SqlSinks.sink(database, schema, new DuckDbRowCheck(), context);
    }

    /** The database file opened read-only: DuckDB refuses it while a sync holds it for writing. */
    @Override
    public SqlDatabase readOnly(ResolvedSettings settings) {
        return DuckDbDatabase.readOnlyFile(Path.of(settings.requireString("path")));
    }

    @Override
    public String schema(ResolvedSettings settings) {
        return settings.string("schema").orElse("main");
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        ResolvedSettings s = context.settings();
        Path file = Path.of(s.requireString("path")).toAbsolutePath();
        if (!Files.exists(file)) {
            return new KeptDeadletters.Nothing("DuckDB database file " + file);
        }
        return new KeptDeadletters.SqlTable(
                DuckDbDatabase.file(file), s.string("schema").orElse("main"));
    }
}
