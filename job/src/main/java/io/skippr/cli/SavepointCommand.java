package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.job.FlinkSettings;
import io.skippr.job.RunningJob;
import io.skippr.job.Savepoints;
import io.skippr.job.StateDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skipprd savepoint}: a savepoint of the job a running {@code skipprd sync} runs. */
@Command(
        name = "savepoint",
        mixinStandardHelpOptions = true,
        description = {
            "Takes a savepoint of a pipeline that 'skipprd sync' runs now (in another shell), in"
                    + " Flink's canonical format, into the pipeline's savepoint folder, and prints"
                    + " where it is. With --stop, the run ends with it: start the new version with"
                    + " 'skipprd sync --pipeline P --from-savepoint PATH'."
        })
final class SavepointCommand implements Callable<Integer> {
    private final CliContext context;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            required = true,
            description = "The running pipeline.")
    String pipeline;

    @Option(names = "--stop", description = "End the run with the savepoint.")
    boolean stop;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
    Path config;

    SavepointCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        Config cfg = context.loadConfig(config);
        cfg.getPipeline(pipeline); // a pipeline the file does not have is a usage error
        Path stateDir = StateDirs.of(cfg.path(), pipeline, context.env);
        RunningJob running =
                RunningJob.read(stateDir)
                        .orElseThrow(
                                () ->
                                        new UsageException(
                                                "pipeline "
                                                        + pipeline
                                                        + " is not running: start it with"
                                                        + " 'skipprd sync --pipeline "
                                                        + pipeline
                                                        + "' (a savepoint is of a running"
                                                        + " continuous sync)"));
        String location =
                Savepoints.take(
                        running,
                        stop,
                        FlinkSettings.savepoints(FlinkSettings.forPipeline(stateDir, context.env)),
                        Duration.ofMinutes(10));
        context.out.println(location);
        context.err.println(
                "Savepoint of pipeline "
                        + pipeline
                        + (stop ? ", which has stopped" : "")
                        + ": "
                        + location);
        return Skipprd.OK;
    }
}
