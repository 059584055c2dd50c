package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import io.skippr.config.ConfiguredPipeline;
import io.skippr.config.model.PipelineDef;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.job.StateDirs;
import io.skippr.job.query.LakeQuery;
import io.skippr.job.query.WalQuery;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import io.skippr.sinks.skipprlake.SkipprLakeSinkFactory;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code skipprd query}: SQL over a pipeline's WAL store, one view per stream. */
@Command(
        name = "query",
        mixinStandardHelpOptions = true,
        description = {
            "Runs SQL (DuckDB's dialect) over the records a pipeline without a data sink keeps in"
                    + " its WAL store (each stream is a view named after it), over the"
                    + " database file of a pipeline's DuckDB data sink, or over the Iceberg tables"
                    + " of its SkipprLake data sink (each table a view of its current snapshot).",
            "Example: skipprd query --pipeline orders \"SELECT count(*) FROM orders\""
        })
final class QueryCommand implements Callable<Integer> {
    private final CliContext context;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            required = true,
            description = "The pipeline whose WAL store to query.")
    String pipeline;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
    Path config;

    @Parameters(paramLabel = "SQL", description = "The query.")
    String sql;

    QueryCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Config cfg = context.loadConfig(config);
        ConfiguredPipeline configured = cfg.getPipeline(pipeline);
        PipelineDef def = configured.definition();
        try {
            if (def.dataSink() == null) {
                context.out.print(WalQuery.table(wal(cfg)));
            } else {
                context.out.print(WalQuery.table(duckDbSink(configured, def)));
            }
        } catch (SQLException e) {
            throw ConfigException.of("query", firstLine(e.getMessage()));
        }
        return Skipprd.OK;
    }

    private WalQuery.Result wal(Config cfg) throws SQLException {
        Path stateDir = StateDirs.of(cfg.path(), pipeline, context.env);
        List<String> streams = WalQuery.streams(stateDir);
        if (streams.isEmpty()) {
            throw new UsageException(
                    "the WAL store of pipeline '"
                            + pipeline
                            + "' is empty; run"
                            + " skipprd sync --pipeline "
                            + pipeline
                            + " --once first");
        }
        try {
            return WalQuery.run(stateDir, sql);
        } catch (SQLException e) {
            throw ConfigException.of(
                    "query",
                    firstLine(e.getMessage()) + " (streams: " + String.join(", ", streams) + ")");
        }
    }

    /** A pipeline loading DuckDB is queried in its database file, read-only. */
    private WalQuery.Result duckDbSink(ConfiguredPipeline configured, PipelineDef def)
            throws SQLException {
        ResolvedSettings sink = configured.resolve(context.env).dataSink();
        if (sink.entry().kind().name().equals(SkipprLakeSinkFactory.KIND)) {
            return lake(def, sink);
        }
        if (!sink.entry().kind().name().equals("DuckDB")) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' loads data_sinks."
                            + def.dataSink()
                            + " ("
                            + sink.entry().kind().name()
                            + "); query it there."
                            + " skipprd query reads the WAL store of pipelines without a data sink,"
                            + " the database file of a DuckDB data sink, or the tables of a"
                            + " SkipprLake");
        }
        Path file = Path.of(sink.requireString("path"));
        if (!java.nio.file.Files.exists(file)) {
            throw new UsageException(
                    "the DuckDB database "
                            + file
                            + " does not exist yet; run"
                            + " skipprd sync --pipeline "
                            + pipeline
                            + " --once first");
        }
        return WalQuery.runOnDuckDb(file, sink.string("schema").orElse("main"), sql);
    }

    /** A pipeline loading SkipprLake is queried over its tables' current snapshots. */
    private WalQuery.Result lake(PipelineDef def, ResolvedSettings sink) throws SQLException {
        SkipprLakeCatalog catalog = SkipprLakeCatalog.of("data_sinks", def.dataSink(), sink);
        String namespace = sink.string("namespace").orElse("skippr");
        List<String> tables = LakeQuery.tables(catalog, namespace);
        if (tables.isEmpty()) {
            throw new UsageException(
                    "namespace "
                            + namespace
                            + " of "
                            + catalog.describe()
                            + " holds no tables yet; run skipprd sync --pipeline "
                            + pipeline
                            + " --once first");
        }
        try {
            return LakeQuery.run(catalog, namespace, sql);
        } catch (SQLException e) {
            throw ConfigException.of(
                    "query",
                    firstLine(e.getMessage()) + " (tables: " + String.join(", ", tables) + ")");
        }
    }

    private static String firstLine(String message) {
        return message == null ? "the query failed" : message.lines().findFirst().orElse(message);
    }
}
