package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import io.skippr.config.Connector;
import io.skippr.config.EntryRef;
import io.skippr.config.EnvRef;
import io.skippr.config.Section;
import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.FieldType;
import io.skippr.config.catalog.KindSpec;
import io.skippr.config.catalog.Role;
import io.skippr.config.model.ConfigModel;
import io.skippr.config.model.ConnectorEntry;
import io.skippr.config.model.EnvRefs;
import io.skippr.config.model.PipelineDef;
import io.skippr.config.model.PipelineKey;
import io.skippr.config.model.Suggest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** {@code skipprd connect <role> <kind>}: writes one entry from flags and wires the pipeline. */
final class ConnectKind implements Callable<Integer> {
    private final CliContext context;
    private final KindSpec kind;
    CommandSpec spec;

    ConnectKind(CliContext context, KindSpec kind) {
        this.context = context;
        this.kind = kind;
    }

    @Override
    public Integer call() {
        String name = option("--name");
        String pipeline = option("--pipeline");
        List<String> errors = new ArrayList<>();
        if (name == null) {
            errors.add("missing required option --name (name of the entry in skippr.yml)");
        } else if (!name.matches("[A-Za-z_][A-Za-z0-9_-]*")) {
            errors.add(
                    "--name: invalid name '"
                            + name
                            + "'; names are letters,"
                            + " digits, _ and -, not starting with a digit or -");
        }
        if (pipeline == null && kind.role() == Role.SCHEMA_SINK) {
            errors.add(
                    "missing required option --pipeline (the pipeline whose data sink links"
                            + " this schema sink)");
        }
        Connector.Generic connector = connectorFromFlags(errors);
        Config config = context.loadOrCreateConfig(spec.findOption("--config").getValue());
        String done =
                switch (kind.role()) {
                    case DATA_SOURCE -> connectSource(config, name, pipeline, connector);
                    case DATA_SINK -> connectSink(config, name, pipeline, connector);
                    case SCHEMA_SINK -> connectSchemaSink(config, name, pipeline, connector);
                };
        config.model(); // refuse to save a file that would not validate
        config.save();
        context.out.println(done + " in " + config.path());
        return Skipprd.OK;
    }

    private String connectSource(
            Config config, String name, String pipeline, Connector.Generic source) {
        EntryRef ref = config.dataSource(name, source);
        if (pipeline == null) {
            return "Wrote " + ref + " (" + kind.name() + ")";
        }
        if (config.pipelineNames().contains(pipeline)) {
            config.wirePipeline(pipeline, PipelineKey.DATA_SOURCE, ref);
        } else {
            config.pipeline(pipeline, new io.skippr.config.Pipeline(ref));
        }
        return "Wrote "
                + ref
                + " ("
                + kind.name()
                + ") as the data source of pipeline '"
                + pipeline
                + "'";
    }

    private String connectSink(
            Config config, String name, String pipeline, Connector.Generic sink) {
        if (pipeline != null) {
            requirePipeline(config, pipeline);
        }
        EntryRef ref = config.dataSink(name, sink);
        String paired = kind.paired() ? " with its paired schema sink schema_sinks." + name : "";
        if (pipeline == null) {
            return "Wrote " + ref + " (" + kind.name() + ")" + paired;
        }
        config.wirePipeline(pipeline, PipelineKey.DATA_SINK, ref);
        return "Wrote "
                + ref
                + " ("
                + kind.name()
                + ")"
                + paired
                + " as the data sink of"
                + " pipeline '"
                + pipeline
                + "'";
    }

    private String connectSchemaSink(
            Config config, String name, String pipeline, Connector.Generic schemaSink) {
        PipelineDef def = requirePipeline(config, pipeline);
        ConfigModel model = config.model();
        if (def.dataSink() == null) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' has no data sink to link the "
                            + kind.name()
                            + " schema sink from; add the data sink first with skipprd"
                            + " connect data-sink <kind> --pipeline "
                            + pipeline
                            + " --name <name> ...");
        }
        ConnectorEntry sink = model.entry(Section.DATA_SINKS, def.dataSink()).orElseThrow();
        KindSpec sinkKind = sink.kind();
        if (!sinkKind.takesSchemaSink()) {
            throw new UsageException(
                    "the data sink data_sinks."
                            + sink.name()
                            + " of pipeline '"
                            + pipeline
                            + "' is "
                            + sinkKind.name()
                            + ", which takes no schema sink");
        }
        if (!sinkKind.schemaSinks().contains(kind.name())) {
            throw new UsageException(
                    "the data sink data_sinks."
                            + sink.name()
                            + " of pipeline '"
                            + pipeline
                            + "' is "
                            + sinkKind.name()
                            + ", which takes a "
                            + String.join(" or ", sinkKind.schemaSinks())
                            + " schema sink, not "
                            + kind.name());
        }
        if (kind.paired()) {
            throw new UsageException(
                    kind.name()
                            + " is paired: skipprd connect data-sink "
                            + kind.command()
                            + " writes its schema sink together with the data sink, with"
                            + " identical settings");
        }
        EntryRef ref = config.schemaSink(name, schemaSink);
        config.linkSchemaSink(sink.ref(), ref);
        return "Wrote "
                + ref
                + " ("
                + kind.name()
                + ") and linked it from data_sinks."
                + sink.name()
                + " of pipeline '"
                + pipeline
                + "'";
    }

    private PipelineDef requirePipeline(Config config, String pipeline) {
        List<String> names = config.pipelineNames().stream().filter(Objects::nonNull).toList();
        if (!names.contains(pipeline)) {
            throw new UsageException(
                    "pipeline '"
                            + pipeline
                            + "' is not defined"
                            + Suggest.closest(pipeline, names)
                                    .map(s -> "; did you mean '" + s + "'?")
                                    .orElse(
                                            "; add its data source first with skipprd connect"
                                                    + " data-source <kind> --pipeline "
                                                    + pipeline
                                                    + " --name <name> ..."));
        }
        return config.model().pipeline(pipeline).orElseThrow();
    }

    /** The connector the flags describe; every bad or missing flag is reported at once. */
    private Connector.Generic connectorFromFlags(List<String> errors) {
        Connector.Generic connector = Connector.of(kind);
        for (Field field : kind.fields()) {
            Object raw = spec.findOption(field.flag()).getValue();
            if (raw == null || raw instanceof List<?> l && l.isEmpty()) {
                if (field.isRequired()) {
                    errors.add(
                            "missing required option "
                                    + field.flag()
                                    + " ("
                                    + field.description()
                                    + ")");
                }
                continue;
            }
            try {
                connector.with(field.name(), value(field, raw));
            } catch (IllegalArgumentException e) {
                errors.add(field.flag() + ": " + e.getMessage());
            }
            if (field.isSecret() && raw instanceof String s && !EnvRefs.contains(s)) {
                context.err.println(
                        "warning: "
                                + field.flag()
                                + " holds a literal secret, which"
                                + " is written to the file as is; pass '${VAR}' to keep it in the"
                                + " environment");
            }
        }
        if (!errors.isEmpty()) {
            throw new ConfigException(
                    errors.stream()
                            .map(
                                    e ->
                                            new io.skippr.config.ConfigError(
                                                    "skipprd connect "
                                                            + kind.role().command()
                                                            + " "
                                                            + kind.command(),
                                                    0,
                                                    0,
                                                    "",
                                                    e))
                            .toList());
        }
        return connector;
    }

    private static Object value(Field field, Object raw) {
        if (raw instanceof List<?> list) {
            List<String> items =
                    list.stream()
                            .map(String::valueOf)
                            .map(String::trim)
                            .filter(s -> !s.isEmpty())
                            .toList();
            if (items.isEmpty()) {
                throw new IllegalArgumentException(
                        "expected " + field.expected() + ", found an empty list");
            }
            return items;
        }
        String text = (String) raw;
        if (EnvRefs.contains(text)) {
            if (!EnvRefs.wellFormed(text)) {
                throw new IllegalArgumentException(
                        "malformed environment variable reference;" + " write ${NAME}");
            }
            if (EnvRefs.isWhole(text)) {
                return new EnvRef(EnvRefs.names(text).get(0));
            }
            if (field.type() != FieldType.STRING) {
                throw new IllegalArgumentException(
                        "expected "
                                + field.expected()
                                + " or one ${VAR} reference, found '"
                                + shown(field, text)
                                + "'");
            }
            return text;
        }
        return switch (field.type()) {
            case INTEGER -> {
                try {
                    yield Long.parseLong(text.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            "expected an integer, found '" + shown(field, text) + "'");
                }
            }
            case BOOLEAN -> {
                if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                    throw new IllegalArgumentException(
                            "expected true or false, found '" + shown(field, text) + "'");
                }
                yield Boolean.parseBoolean(text);
            }
            default -> {
                if (!field.choices().isEmpty() && !field.choices().contains(text)) {
                    throw new IllegalArgumentException(
                            "expected "
                                    + field.expected()
                                    + ", found '"
                                    + text
                                    + "'"
                                    + Suggest.didYouMean(text, field.choices()));
                }
                if (text.isEmpty()) {
                    throw new IllegalArgumentException(
                            "expected " + field.expected() + ", found an empty string");
                }
                yield text;
            }
        };
    }

    private static String shown(Field field, String text) {
        return field.isSecret() ? "(secret, not shown)" : text;
    }

    private String option(String name) {
        OptionSpec option = spec.findOption(name);
        return option.getValue();
    }
}
