package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfiguredPipeline;
import io.skippr.core.spi.FailPoint;
import io.skippr.job.EmbeddedRunner;
import io.skippr.job.PipelineGraph;
import io.skippr.job.Progress;
import io.skippr.job.StateDirs;
import io.skippr.job.Summary;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skipprd sync}: runs a pipeline on an embedded Flink with its web UI. */
@Command(
        name = "sync",
        mixinStandardHelpOptions = true,
        description = {
            "Runs a pipeline on an embedded Flink, with Flink's web UI on 127.0.0.1.",
            "With --once, copies what the source holds now and ends with 'Pipeline sync"
                    + " complete'; without it, keeps syncing (checkpointed every few seconds)"
                    + " until Ctrl-C, and resumes from the latest checkpoint when started again."
        })
final class SyncCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(SyncCommand.class);

    private final CliContext context;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            required = true,
            description = "The pipeline to run.")
    String pipeline;

    @Option(
            names = "--once",
            description = "Copy what the source holds now, then stop (batch" + " mode).")
    boolean once;

    @Option(names = "--log", description = "Print the log instead of the progress line.")
    boolean log;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
    Path config;

    @Option(
            names = "--from-savepoint",
            paramLabel = "PATH",
            description =
                    "Start a continuous run from this savepoint (see 'skipprd savepoint') or"
                            + " retained checkpoint, instead of the pipeline's newest checkpoint.")
    String fromSavepoint;

    SyncCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        if (once && fromSavepoint != null) {
            throw new UsageException(
                    "--from-savepoint is for continuous runs: a --once run starts from the"
                            + " positions its data sink committed");
        }
        Config cfg = context.loadConfig(config);
        ConfiguredPipeline configured = cfg.getPipeline(pipeline);
        configured.resolve(context.env); // every missing variable, before Flink starts
        Path stateDir = StateDirs.of(cfg.path(), pipeline, context.env);
        ProgressLine line = new ProgressLine(context.err, !log && System.console() != null);
        Logs.configure(stateDir, log, line::say);
        PipelineGraph.Request request =
                new PipelineGraph.Request(
                        configured, once, context.env, stateDir, FailPoint.fromSystemProperty());
        try (EmbeddedRunner runner = new EmbeddedRunner(request)) {
            if (fromSavepoint != null) {
                runner.restoreFrom(fromSavepoint);
            }
            if (!log) { // with --log, the log on the console says it already
                runner.onTrouble(line::say);
            }
            if (!log && System.console() != null) { // the lag is only on the live line
                runner.readLag();
            }
            String ui = runner.start();
            context.err.println("Flink web UI: " + ui);
            LOG.info("Flink web UI: {}", ui);
            Thread hook = new Thread(() -> runner.cancel(Duration.ofSeconds(30)), "skipprd-stop");
            Runtime.getRuntime().addShutdownHook(hook);
            Map<String, Map<String, Long>> counters;
            try {
                counters = runner.run(c -> line.update(c, runner.replicationLag()));
            } finally {
                line.finish();
                removeHook(hook);
            }
            context.err.print(Summary.table(counters));
            if (once) {
                String done = "Pipeline sync complete: " + Summary.line(counters);
                LOG.info(done);
                context.err.println(done);
            }
            long deadlettered = Progress.total(counters, Progress.DEADLETTERED);
            if (deadlettered > 0 && !log) {
                context.err.println(
                        deadlettered
                                + " records were deadlettered; see "
                                + stateDir.resolve("logs")
                                + " for details");
            }
        }
        return Skipprd.OK;
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running
        }
    }
}
