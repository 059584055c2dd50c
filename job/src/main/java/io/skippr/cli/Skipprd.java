package io.skippr.cli;

import io.skippr.cli.verify.HistoryCommand;
import io.skippr.cli.verify.VerifyCommand;
import io.skippr.config.ConfigException;
import io.skippr.config.catalog.Role;
import io.skippr.config.model.Suggest;
import io.skippr.core.io.DiskSpace;
import io.skippr.job.Failures;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code skipprd}: edits {@code skippr.yml}, validates it and runs its pipelines. */
@Command(
        name = "skipprd",
        mixinStandardHelpOptions = true,
        versionProvider = Skipprd.Version.class,
        description = "Skippr: sync records from data sources into data sinks, on Apache Flink.",
        footer = {
            "",
            "Exit codes: 0 ok, 1 runtime failure, 2 usage or configuration error.",
            "The config file is --config FILE, else $SKIPPR_CONFIG, else ./skippr.yml or the"
                    + " nearest parent folder's."
        })
public final class Skipprd implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILURE = 1;
    static final int USAGE = 2;

    @Spec CommandSpec spec;

    private final CliContext context;

    @Option(
            names = "--config",
            paramLabel = "FILE",
            description = "The skippr.yml to use (default: $SKIPPR_CONFIG, then discovery).")
    void config(Path file) {
        context.rootConfig = file;
    }

    private Skipprd(CliContext context) {
        this.context = context;
    }

    public static void main(String[] args) {
        // skipprd as its own process decides where logs go (console with --log, else a file)
        System.setProperty(Logs.MANAGED, "true");
        System.setProperty("log4j2.configurationFile", "classpath:log4j2-skipprd.properties");
        // one logging context for the process: Log4j's default builds (and configures) another
        // for each class loader that asks, as Flink's RPC system in its own loader does
        System.setProperty(
                "log4j2.contextSelector",
                "org.apache.logging.log4j.core.selector.BasicContextSelector");
        System.setProperty("skippr.console.level", "OFF");
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, Path.of("").toAbsolutePath(), System.getenv(), out, err));
    }

    /** Runs one command line and returns its exit code; never throws for a user's mistake. */
    public static int run(
            String[] args, Path cwd, Map<String, String> env, PrintWriter out, PrintWriter err) {
        CliContext context = new CliContext(cwd, env, out, err);
        CommandLine cli = new CommandLine(new Skipprd(context));
        if (!"sync".equals(command(args))) {
            // a command for each connector kind and field: building them is a tenth of a second
            // of every sync's start-up, and a sync never needs them
            cli.addSubcommand(ConnectCommands.connect(context));
        }
        cli.addSubcommand(new CommandLine(new ValidateCommand(context)));
        cli.addSubcommand(new CommandLine(new SyncCommand(context)));
        cli.addSubcommand(new CommandLine(new SavepointCommand(context)));
        cli.addSubcommand(new CommandLine(new ResetCommand(context)));
        cli.addSubcommand(new CommandLine(new QueryCommand(context)));
        cli.addSubcommand(
                new CommandLine(
                        new VerifyCommand(
                                context::loadConfig, context.env, context.out, context.err)));
        cli.addSubcommand(
                new CommandLine(new HistoryCommand(context::loadConfig, context.env, context.out)));
        cli.addSubcommand(DeadlettersCommand.command(context));
        cli.addSubcommand(ConfigCommand.command(context));
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> handle(e, commandLine.getErr()));
        cli.setParameterExceptionHandler(Skipprd::handleUsage);
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** The command {@code args} names: its first word that is not an option or its value. */
    static String command(String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--config")) {
                i++;
            } else if (!args[i].startsWith("-")) {
                return args[i];
            }
        }
        return null;
    }

    private static int handle(Exception e, PrintWriter err) {
        if (e instanceof ConfigException config) {
            config.errors().forEach(error -> err.println("error: " + error));
            if (config.errors().size() > 1) {
                err.println(config.errors().size() + " errors");
            }
            return USAGE;
        }
        if (e instanceof UsageException) {
            err.println("error: " + e.getMessage());
            return USAGE;
        }
        Throwable cause = Failures.rootCause(e);
        if (cause instanceof ConfigException config) {
            return handle(config, err);
        }
        err.println("error: " + Failures.describe(cause));
        if (DiskSpace.isFull(e)) {
            err.println(
                    "Free space on the disk the error names and run again: what earlier runs"
                            + " committed is kept, and the next run carries on from it.");
        }
        return FAILURE;
    }

    /**
     * A command line picocli cannot parse: one "error:" line in plain words, then where to find the
     * usage, rather than the whole help text.
     */
    private static int handleUsage(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        String message = e.getMessage();
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched
                && !unmatched.getUnmatched().isEmpty()) {
            String first = unmatched.getUnmatched().get(0);
            List<String> suggestions = unmatched.getSuggestions();
            if (first.startsWith("-")) {
                message = "unknown option '" + first + "'";
            } else if (!command.getSubcommands().isEmpty()) {
                List<String> names = visibleSubcommands(command.getSubcommands());
                String what =
                        Arrays.stream(Role.values())
                                .filter(r -> r.command().equals(command.getCommandName()))
                                .map(r -> r.label() + " kind '" + first + "'")
                                .findFirst()
                                .orElse(
                                        "command '"
                                                + first
                                                + "' for "
                                                + command.getCommandSpec().qualifiedName());
                message = "unknown " + what;
                suggestions = Suggest.closest(first, names).stream().toList();
                if (suggestions.isEmpty()) {
                    message += "; expected one of " + String.join(", ", names);
                }
            }
            if (!suggestions.isEmpty()) {
                message += "; did you mean " + String.join(" or ", suggestions) + "?";
            }
        }
        message = Character.toLowerCase(message.charAt(0)) + message.substring(1);
        err.println("error: " + message);
        err.println("Run '" + command.getCommandSpec().qualifiedName() + " --help' for usage.");
        return USAGE;
    }

    /** The subcommands' names as the user types them: no aliases, no hidden commands. */
    static List<String> visibleSubcommands(Map<String, CommandLine> subcommands) {
        return subcommands.entrySet().stream()
                .filter(c -> c.getKey().equals(c.getValue().getCommandName()))
                .filter(c -> !c.getValue().getCommandSpec().usageMessage().hidden())
                .map(Map.Entry::getKey)
                .toList();
    }

    @Override
    public Integer call() {
        context.err.println(
                "error: skipprd needs a command: "
                        + String.join(", ", visibleSubcommands(spec.subcommands())));
        spec.commandLine().usage(context.err);
        return USAGE;
    }

    /** The version from the jar manifest, or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Skipprd.class.getPackage().getImplementationVersion();
            return new String[] {"skipprd " + (version == null ? "development" : version)};
        }
    }
}
