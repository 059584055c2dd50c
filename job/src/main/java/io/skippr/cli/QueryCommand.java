package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import io.skippr.config.model.PipelineDef;
import io.skippr.job.StateDirs;
import io.skippr.job.query.WalQuery;
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
                    + " its WAL store; each stream is a view named after it.",
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
        PipelineDef def = cfg.getPipeline(pipeline).definition();
        if (def.dataSink() != null) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' loads data_sinks."
                            + def.dataSink()
                            + "; query it there. skipprd query reads the WAL store of"
                            + " pipelines without a data sink");
        }
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
            context.out.print(WalQuery.table(WalQuery.run(stateDir, sql)));
        } catch (SQLException e) {
            throw ConfigException.of(
                    "query",
                    firstLine(e.getMessage()) + " (streams: " + String.join(", ", streams) + ")");
        }
        return Skipprd.OK;
    }

    private static String firstLine(String message) {
        return message == null ? "the query failed" : message.lines().findFirst().orElse(message);
    }
}
