package io.skippr.config;

import java.util.List;
import java.util.stream.Collectors;

/** A user's mistake in configuration: one or more {@link ConfigError}s, all reported at once. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final List<ConfigError> errors;

    public ConfigException(List<ConfigError> errors) {
        super(format(errors));
        this.errors = List.copyOf(errors);
    }

    public ConfigException(ConfigError error) {
        this(List.of(error));
    }

    /** An error that has no place in a file, such as a missing file. */
    public static ConfigException of(String file, String message) {
        return new ConfigException(new ConfigError(file, 0, 0, "", message));
    }

    public List<ConfigError> errors() {
        return errors;
    }

    private static String format(List<ConfigError> errors) {
        String body = errors.stream().map(ConfigError::toString).collect(Collectors.joining("\n"));
        if (errors.size() == 1) {
            return body;
        }
        return body + "\n" + errors.size() + " errors in " + errors.get(0).file();
    }
}
