package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfiguredPipeline;
import io.skippr.job.PipelineReset;
import io.skippr.job.StateDirs;
import java.io.Console;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code skipprd reset}: makes a pipeline's next run start as its first did, with a fresh snapshot
 * (see {@link PipelineReset}).
 */
@Command(
        name = "reset",
        mixinStandardHelpOptions = true,
        description = {
            "Makes a pipeline's next run start from the beginning: drops its replication slot and"
                    + " publication (replication_method cdc), clears the positions its data sink"
                    + " committed, and moves its checkpoints aside; the rows already loaded stay."
                    + " Asks to confirm on a terminal; elsewhere needs --yes."
        })
final class ResetCommand implements Callable<Integer> {
    private final CliContext context;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            required = true,
            description = "The pipeline to reset.")
    String pipeline;

    @Option(names = "--yes", description = "Reset without asking.")
    boolean yes;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to use.")
    Path config;

    ResetCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        Config cfg = context.loadConfig(config);
        ConfiguredPipeline configured = cfg.getPipeline(pipeline);
        configured.resolve(context.env); // every missing variable first
        Path stateDir = StateDirs.of(cfg.path(), pipeline, context.env);
        PipelineReset reset;
        try {
            reset = PipelineReset.plan(configured, context.env, stateDir);
        } catch (IllegalStateException refused) {
            context.err.println("error: " + refused.getMessage());
            return Skipprd.FAILURE;
        }
        List<String> steps = reset.steps();
        if (!yes) {
            Console console = System.console();
            if (console == null) {
                throw new UsageException(
                        "skipprd reset asks to confirm on a terminal, and there is none: run"
                                + " 'skipprd reset --pipeline "
                                + pipeline
                                + " --yes' to reset without asking. It would "
                                + String.join("; ", steps));
            }
            context.err.println("Resetting pipeline " + pipeline + " will:");
            steps.forEach(step -> context.err.println("  - " + step));
            context.err.flush();
            String answer = console.readLine("Type yes to reset pipeline %s: ", pipeline);
            if (answer == null || !answer.strip().equalsIgnoreCase("yes")) {
                context.err.println("Nothing was changed.");
                return Skipprd.FAILURE;
            }
        }
        List<String> done;
        try {
            done = reset.run();
        } catch (IllegalStateException | UnsupportedOperationException refused) {
            context.err.println(
                    "error: "
                            + (refused instanceof UnsupportedOperationException
                                    ? "data sink of pipeline "
                                            + pipeline
                                            + " holds committed positions that skipprd reset"
                                            + " cannot clear; nothing was changed: "
                                    : "")
                            + refused.getMessage());
            return Skipprd.FAILURE;
        }
        done.forEach(line -> context.err.println(line));
        context.err.println(
                "Pipeline "
                        + pipeline
                        + " is reset: its next run "
                        + (reset.hasServerState()
                                ? "starts with a fresh snapshot."
                                : "reads its source from the start."));
        return Skipprd.OK;
    }
}
