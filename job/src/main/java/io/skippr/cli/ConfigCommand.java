package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigDiscovery;
import io.skippr.config.ConfigEdits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code skipprd config}: the config plane other languages' APIs drive (the Python {@code skippr}
 * package), so that they never implement the loader a second time.
 */
final class ConfigCommand {
    private ConfigCommand() {}

    static CommandLine command(CliContext context) {
        CommandLine config = new CommandLine(new Group(context));
        config.addSubcommand(new CommandLine(new Apply(context)));
        config.addSubcommand(new CommandLine(new PathOf(context)));
        return config;
    }

    @Command(
            name = "config",
            mixinStandardHelpOptions = true,
            description = "Reads and edits skippr.yml for the Python API: apply, path.")
    static final class Group implements Callable<Integer> {
        private final CliContext context;

        Group(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() {
            context.err.println("error: skipprd config needs a command: apply, path");
            return Skipprd.USAGE;
        }
    }

    @Command(
            name = "apply",
            mixinStandardHelpOptions = true,
            description = {
                "Applies the edits of a JSON document read on standard input to skippr.yml, in"
                        + " order, and saves it (created when missing); a mistake saves nothing"
                        + " and exits 2.",
                "The document: {\"edits\": [...]}, as io.skippr.config.ConfigEdits describes."
            })
    static final class Apply implements Callable<Integer> {
        private final CliContext context;

        @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to edit.")
        Path config;

        Apply(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() throws IOException {
            Config cfg = context.loadOrCreateConfig(config);
            ConfigEdits.apply(cfg, new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
            cfg.save();
            context.out.println("saved " + cfg.path());
            return 0;
        }
    }

    @Command(
            name = "path",
            mixinStandardHelpOptions = true,
            description =
                    "Prints the skippr.yml a command would read: --config, $SKIPPR_CONFIG, then"
                            + " ./skippr.yml or the nearest in a parent folder.")
    static final class PathOf implements Callable<Integer> {
        private final CliContext context;

        @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to name.")
        Path config;

        PathOf(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() {
            Path chosen = config != null ? config : context.rootConfig;
            context.out.println(
                    ConfigDiscovery.require(chosen, context.env, context.cwd).toAbsolutePath());
            return 0;
        }
    }
}
