package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigDiscovery;
import io.skippr.config.ConfigException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * What a command runs against: the user's folder, environment and terminal, and the root command's
 * {@code --config}. Passed in, so tests run commands in-process without touching globals.
 */
final class CliContext {
    final Path cwd;
    final Map<String, String> env;
    final PrintWriter out;
    final PrintWriter err;
    Path rootConfig;

    CliContext(Path cwd, Map<String, String> env, PrintWriter out, PrintWriter err) {
        this.cwd = cwd;
        this.env = env;
        this.out = out;
        this.err = err;
    }

    /** The config file to read: {@code --config}, {@code $SKIPPR_CONFIG}, then discovery. */
    Config loadConfig(Path explicit) {
        Path chosen = choose(explicit);
        Path path = ConfigDiscovery.require(chosen, env, cwd);
        if (!Files.exists(path)) {
            throw ConfigException.of(
                    path.toString(), "no such file (named by " + namedBy(chosen) + ")");
        }
        return load(path, chosen);
    }

    /** The config file to edit, created empty at {@code ./skippr.yml} if none exists yet. */
    Config loadOrCreateConfig(Path explicit) {
        Path chosen = choose(explicit);
        Path path = ConfigDiscovery.findOrDefault(chosen, env, cwd);
        return Files.exists(path) ? load(path, chosen) : Config.empty(path);
    }

    private static Config load(Path path, Path chosen) {
        if (Files.isDirectory(path)) {
            throw ConfigException.of(
                    path.toString(),
                    "is a folder, not a config file (named by "
                            + namedBy(chosen)
                            + "); name the skippr.yml file itself");
        }
        return Config.load(path);
    }

    private static String namedBy(Path chosen) {
        return chosen != null ? "--config" : "$" + ConfigDiscovery.ENV_VAR;
    }

    private Path choose(Path explicit) {
        return explicit != null ? explicit : rootConfig;
    }
}
