package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.config.Config;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.sinks.sql.LoadsTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skipprd history}: the loads a pipeline's data sink recorded, newest first. */
@Command(
        name = "history",
        mixinStandardHelpOptions = true,
        description = {
            "Lists the loads of a pipeline its data sink recorded in "
                    + LoadsTable.NAME
                    + ", newest first: per load and stream, when it committed, how many rows it"
                    + " loaded, their checksum and the cursor range they cover. Postgres, DuckDB,"
                    + " Redshift, Snowflake and BigQuery data sinks record loads. Reads the sink and writes nothing.",
            "Exit codes: 0 loads listed, 2 configuration error or no load recorded."
        })
public final class HistoryCommand implements Callable<Integer> {
    private static final String[] HEADER = {
        "load", "mode", "committed (UTC)", "stream", "rows", "checksum", "from", "to"
    };

    /** The column of row counts, right-aligned. */
    private static final int ROWS = 4;

    private final Function<Path, Config> configs;
    private final Map<String, String> env;
    private final PrintWriter out;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            required = true,
            description = "The pipeline whose loads to list.")
    String pipeline;

    @Option(names = "--stream", paramLabel = "STREAM", description = "Only this stream's loads.")
    String stream;

    @Option(
            names = "--limit",
            paramLabel = "N",
            defaultValue = "20",
            description = "At most N rows, the newest (default: ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print one JSON document instead of the table.")
    boolean json;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
    Path config;

    public HistoryCommand(
            Function<Path, Config> configs, Map<String, String> env, PrintWriter out) {
        this.configs = configs;
        this.env = env;
        this.out = out;
    }

    @Override
    public Integer call() throws SQLException {
        if (limit < 1) {
            throw new UsageException("--limit " + limit + " lists nothing: give 1 or more");
        }
        ResolvedPipeline run = configs.apply(config).getPipeline(pipeline).resolve(env);
        ResolvedSettings sinkSettings = run.dataSink();
        String kind = sinkSettings == null ? null : sinkSettings.entry().kind().name();
        if (!VerifyCommand.LOADS.contains(kind)) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' loads "
                            + (sinkSettings == null
                                    ? "no data sink"
                                    : "data_sinks."
                                            + sinkSettings.entry().name()
                                            + " ("
                                            + kind
                                            + ")")
                            + "; Postgres, DuckDB, Redshift, Snowflake and BigQuery data sinks record loads in "
                            + LoadsTable.NAME
                            + ", others none yet");
        }
        try (SinkDatabase sink = SinkDatabase.open(pipeline, sinkSettings, kind)) {
            List<Loads.Load> loads =
                    sink.recordsLoads()
                            ? Loads.read(
                                    sink.reader(),
                                    sink.dialect(),
                                    sink.loadsTable(),
                                    pipeline,
                                    sink.sink(),
                                    stream)
                            : List.of();
            if (loads.isEmpty()) {
                throw new UsageException(
                        stream == null
                                ? noLoads(pipeline, sink)
                                : noLoads(pipeline, sink) + " of stream '" + stream + "'");
            }
            List<Loads.Load> shown = loads.subList(0, Math.min(limit, loads.size()));
            out.print(json ? json(shown) : table(shown, loads.size()));
            out.flush();
            return 0;
        }
    }

    /** The message for a sink without recorded loads of {@code pipeline}. */
    static String noLoads(String pipeline, SinkDatabase sink) {
        return "data_sinks."
                + sink.sink()
                + " holds no load of pipeline '"
                + pipeline
                + "' in "
                + sink.loadsTable()
                + ": it records each commit's loads since Skippr records them; run skipprd sync"
                + " --pipeline "
                + pipeline
                + " first";
    }

    private static String table(List<Loads.Load> shown, int all) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Loads.Load l : shown) {
            rows.add(
                    new String[] {
                        l.id(),
                        l.mode(),
                        l.committedAt(),
                        l.stream(),
                        Long.toString(l.load().rows()),
                        l.checksum(),
                        l.load().from() == null ? "-" : l.load().from(),
                        l.load().to() == null ? "-" : l.load().to()
                    });
        }
        StringBuilder text = new StringBuilder(VerifyReport.columns(rows, i -> i == ROWS));
        if (all > shown.size()) {
            text.append(all - shown.size()).append(" older loads not shown (--limit)\n");
        }
        return text.toString();
    }

    private static String json(List<Loads.Load> shown) {
        return "{\"loads\":["
                + shown.stream()
                        .map(
                                l ->
                                        "{\"load\":"
                                                + VerifyReport.quote(l.id())
                                                + ",\"run\":"
                                                + l.run()
                                                + ",\"checkpoint\":"
                                                + l.checkpoint()
                                                + ",\"mode\":"
                                                + VerifyReport.quote(l.mode())
                                                + ",\"committed_at\":"
                                                + VerifyReport.quote(l.committedAt())
                                                + ",\"stream\":"
                                                + VerifyReport.quote(l.stream())
                                                + ",\"rows\":"
                                                + l.load().rows()
                                                + ",\"checksum\":"
                                                + VerifyReport.quote(l.checksum())
                                                + ",\"from\":"
                                                + VerifyReport.quote(l.load().from())
                                                + ",\"to\":"
                                                + VerifyReport.quote(l.load().to())
                                                + "}")
                        .collect(Collectors.joining(","))
                + "]}\n";
    }
}
