package io.skippr.cli;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.FieldType;
import io.skippr.config.catalog.KindSpec;
import io.skippr.config.catalog.Role;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Builds {@code skipprd connect <role> <kind>} from the catalog: one subcommand per kind, one flag
 * per field ({@code s3_prefix} is {@code --s3-prefix}), help from the field descriptions.
 */
final class ConnectCommands {
    static final String DEADLETTER_ADVICE =
            "skipprd connect does not write deadletter sinks; declare one under deadletter_sinks"
                    + " in skippr.yml, or with Config.deadletterSink(...) in Java, and point the"
                    + " pipeline's deadletter_sink at it";

    private ConnectCommands() {}

    static CommandLine connect(CliContext context) {
        CommandSpec connect = group(context, "connect");
        connect.usageMessage()
                .description(
                        "Adds a connector entry to skippr.yml and wires it into a pipeline.",
                        DEADLETTER_ADVICE + ".");
        CommandLine cli = new CommandLine(connect);
        for (Role role : Role.values()) {
            cli.addSubcommand(role.command(), roleCommand(context, role));
        }
        CommandSpec deadletter =
                CommandSpec.wrapWithoutInspection(
                        (Callable<Integer>)
                                () -> {
                                    throw new UsageException(DEADLETTER_ADVICE + ".");
                                });
        deadletter.usageMessage().hidden(true);
        deadletter.parser().unmatchedArgumentsAllowed(true);
        cli.addSubcommand("deadletter-sink", new CommandLine(deadletter));
        return cli;
    }

    private static CommandLine roleCommand(CliContext context, Role role) {
        CommandSpec spec = group(context, role.command());
        spec.usageMessage().description(roleDescription(role));
        CommandLine cli = new CommandLine(spec);
        for (KindSpec kind : Catalog.get().kinds(role)) {
            cli.addSubcommand(
                    kind.command(),
                    kindCommand(context, kind),
                    kind.commandAliases().toArray(String[]::new));
        }
        return cli;
    }

    private static String roleDescription(Role role) {
        return switch (role) {
            case DATA_SOURCE ->
                    "Adds a data source; with --pipeline, the pipeline reads from it"
                            + " (the pipeline is created if it does not exist).";
            case DATA_SINK ->
                    "Adds a data sink and makes it the pipeline's data_sink. Paired kinds"
                            + " (DuckDB, AthenaIceberg, SkipprLake) also write their schema sink.";
            case SCHEMA_SINK ->
                    "Adds a schema sink and links it from the pipeline's existing data"
                            + " sink; add the data sink first.";
        };
    }

    private static CommandLine kindCommand(CliContext context, KindSpec kind) {
        ConnectKind handler = new ConnectKind(context, kind);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(handler);
        spec.mixinStandardHelpOptions(true);
        spec.usageMessage()
                .sortOptions(false)
                .description(
                        kind.title() + " " + kind.role().label() + ": " + kind.description() + ".");
        spec.addOption(
                OptionSpec.builder("--pipeline")
                        .paramLabel("PIPELINE")
                        .type(String.class)
                        .description(pipelineHelp(kind.role()))
                        .build());
        spec.addOption(
                OptionSpec.builder("--name")
                        .paramLabel("NAME")
                        .type(String.class)
                        .description("Name of the entry in skippr.yml. Required.")
                        .build());
        for (Field field : kind.fields()) {
            spec.addOption(fieldOption(field));
        }
        spec.addOption(
                OptionSpec.builder("--config")
                        .paramLabel("FILE")
                        .type(Path.class)
                        .description(
                                "The skippr.yml to edit (default: $SKIPPR_CONFIG, then discovery,"
                                        + " then a new ./skippr.yml).")
                        .build());
        handler.spec = spec;
        return new CommandLine(spec);
    }

    private static String pipelineHelp(Role role) {
        return switch (role) {
            case DATA_SOURCE -> "Pipeline that reads from this source.";
            case DATA_SINK -> "Pipeline whose data_sink this becomes.";
            case SCHEMA_SINK -> "Pipeline whose data sink links this schema sink. Required.";
        };
    }

    private static OptionSpec fieldOption(Field field) {
        OptionSpec.Builder option =
                OptionSpec.builder(field.flag())
                        .paramLabel(field.name().toUpperCase(Locale.ROOT))
                        .description(help(field));
        if (field.type() == FieldType.STRING_LIST) {
            option.type(List.class).auxiliaryTypes(String.class).splitRegex(",");
        } else if (field.type() == FieldType.BOOLEAN) {
            option.type(String.class).arity("0..1").fallbackValue("true");
        } else {
            option.type(String.class);
        }
        return option.build();
    }

    private static String help(Field field) {
        StringBuilder help = new StringBuilder(field.description()).append('.');
        if (field.isRequired()) {
            help.append(" Required.");
        }
        if (field.defaultValue() != null) {
            help.append(" Default: ").append(field.defaultValue()).append('.');
        }
        if (!field.choices().isEmpty()) {
            help.append(" One of: ").append(String.join(", ", field.choices())).append('.');
        }
        if (field.type() == FieldType.STRING_LIST) {
            help.append(" Repeat the flag or separate with commas.");
        }
        if (field.isSecret()) {
            help.append(" Secret: pass '${VAR}' so the file keeps the reference, not the value.");
        }
        return escape(help.toString());
    }

    /** Help texts are interpolated by picocli: {@code $${VAR}} prints as {@code ${VAR}}. */
    private static String escape(String text) {
        return text.replace("${", "$${");
    }

    /** A command that only groups subcommands: run alone, it names them and exits 2. */
    private static CommandSpec group(CliContext context, String name) {
        ShowUsage handler = new ShowUsage(context);
        CommandSpec spec = CommandSpec.wrapWithoutInspection(handler);
        spec.name(name).mixinStandardHelpOptions(true);
        handler.spec = spec;
        return spec;
    }

    private static final class ShowUsage implements Callable<Integer> {
        private final CliContext context;
        private CommandSpec spec;

        ShowUsage(CliContext context) {
            this.context = context;
        }

        @Override
        public Integer call() {
            context.err.println(
                    "error: "
                            + spec.qualifiedName()
                            + " needs a subcommand: "
                            + String.join(", ", Skipprd.visibleSubcommands(spec.subcommands())));
            spec.commandLine().usage(context.err);
            return Skipprd.USAGE;
        }
    }
}
