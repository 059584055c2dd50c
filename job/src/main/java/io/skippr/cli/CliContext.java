package io.skippr.cli;

import io.skippr.config.Config;
import io.skippr.config.ConfigDiscovery;
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
        return Config.load(ConfigDiscovery.require(choose(explicit), env, cwd));
    }

    /** The config file to edit, created empty at {@code ./skippr.yml} if none exists yet. */
    Config loadOrCreateConfig(Path explicit) {
        Path path = ConfigDiscovery.findOrDefault(choose(explicit), env, cwd);
        return Files.exists(path) ? Config.load(path) : Config.empty(path);
    }

    private Path choose(Path explicit) {
        return explicit != null ? explicit : rootConfig;
    }
}
