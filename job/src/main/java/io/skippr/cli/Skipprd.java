package io.skippr.cli;

import io.skippr.config.ConfigException;
import java.io.PrintWriter;
import java.nio.file.Path;
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
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        System.exit(run(args, Path.of("").toAbsolutePath(), System.getenv(), out, err));
    }

    /** Runs one command line and returns its exit code; never throws for a user's mistake. */
    public static int run(
            String[] args, Path cwd, Map<String, String> env, PrintWriter out, PrintWriter err) {
        CliContext context = new CliContext(cwd, env, out, err);
        CommandLine cli = new CommandLine(new Skipprd(context));
        cli.addSubcommand(ConnectCommands.connect(context));
        cli.addSubcommand(new CommandLine(new ValidateCommand(context)));
        cli.setOut(out);
        cli.setErr(err);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler(
                (e, commandLine, parseResult) -> handle(e, commandLine.getErr()));
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
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
        err.println("error: " + e.getClass().getSimpleName() + ": " + e.getMessage());
        return FAILURE;
    }

    @Override
    public Integer call() {
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
