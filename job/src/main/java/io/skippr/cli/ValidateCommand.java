package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigException;
import io.skippr.config.Section;
import io.skippr.config.model.ConfigModel;
import io.skippr.config.model.Suggest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code skipprd validate}: checks the whole file, and the environment a run would need. */
@Command(
        name = "validate",
        mixinStandardHelpOptions = true,
        description = {
            "Checks skippr.yml: sections, kinds, fields and their types, references, pairing;"
                    + " and that every $${VAR} the pipelines use is set.",
            "Prints every mistake with its file, line and YAML path; exits 2 if there is one."
        })
final class ValidateCommand implements Callable<Integer> {
    private final CliContext context;

    @Option(
            names = "--pipeline",
            paramLabel = "PIPELINE",
            description =
                    "Check only this pipeline's"
                            + " environment (the file is always checked whole).")
    String pipeline;

    @Option(names = "--skip-env", description = "Do not check that environment variables are set.")
    boolean skipEnv;

    @Option(names = "--config", paramLabel = "FILE", description = "The skippr.yml to check.")
    Path config;

    ValidateCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        Config cfg = context.loadConfig(config);
        ConfigModel model = cfg.model();
        List<String> pipelines = new ArrayList<>(model.pipelines().keySet());
        if (pipeline != null) {
            if (!pipelines.contains(pipeline)) {
                throw ConfigException.of(
                        cfg.path().toString(),
                        "pipeline '"
                                + pipeline
                                + "' is not defined"
                                + Suggest.closest(pipeline, pipelines)
                                        .map(s -> "; did you mean '" + s + "'?")
                                        .orElse(
                                                pipelines.isEmpty()
                                                        ? "; the file has no pipelines"
                                                        : "; pipelines: "
                                                                + String.join(", ", pipelines)));
            }
            pipelines = List.of(pipeline);
        }
        if (!skipEnv) {
            List<io.skippr.config.ConfigError> errors = new ArrayList<>();
            for (String name : pipelines) {
                try {
                    cfg.getPipeline(name).resolve(context.env);
                } catch (ConfigException e) {
                    e.errors().stream().filter(err -> !errors.contains(err)).forEach(errors::add);
                }
            }
            if (!errors.isEmpty()) {
                throw new ConfigException(errors);
            }
        }
        context.out.println(cfg.path() + " is valid: " + summary(model, pipelines));
        return Skipprd.OK;
    }

    private static String summary(ConfigModel model, List<String> checked) {
        List<String> parts = new ArrayList<>();
        parts.add(
                count(model.pipelines().size(), "pipeline")
                        + (checked.isEmpty() ? "" : " (" + String.join(", ", checked) + ")"));
        for (Section section : Section.values()) {
            int n = model.entries(section).size();
            if (n > 0) {
                parts.add(count(n, section.label()));
            }
        }
        return String.join(", ", parts);
    }

    private static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
