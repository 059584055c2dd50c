package io.skippr.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the config file is: {@code --config FILE}, else {@code $SKIPPR_CONFIG}, else {@code
 * skippr.yml} in the current folder or the nearest parent folder that has one.
 */
public final class ConfigDiscovery {
    public static final String ENV_VAR = "SKIPPR_CONFIG";
    public static final String FILE_NAME = "skippr.yml";

    private ConfigDiscovery() {}

    /** The file to use, which may not exist yet when given explicitly. */
    public static Optional<Path> find(Path explicit, Map<String, String> env, Path cwd) {
        if (explicit != null) {
            return Optional.of(cwd.resolve(explicit));
        }
        String fromEnv = env.get(ENV_VAR);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(cwd.resolve(fromEnv));
        }
        for (Path dir = cwd.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(FILE_NAME);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The file to use, or {@code ./skippr.yml} when there is none yet, for commands that create it.
     */
    public static Path findOrDefault(Path explicit, Map<String, String> env, Path cwd) {
        return find(explicit, env, cwd).orElse(cwd.resolve(FILE_NAME));
    }

    /** The file to read; a {@link ConfigException} when none is found. */
    public static Path require(Path explicit, Map<String, String> env, Path cwd) {
        return find(explicit, env, cwd)
                .orElseThrow(
                        () ->
                                ConfigException.of(
                                        FILE_NAME,
                                        "no "
                                                + FILE_NAME
                                                + " in "
                                                + cwd.toAbsolutePath()
                                                + " or its parent folders; pass --config FILE or"
                                                + " set "
                                                + ENV_VAR));
    }
}
