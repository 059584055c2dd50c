package io.skippr.config.model;

import io.skippr.config.ConfigError;
import io.skippr.config.ConfigException;
import io.skippr.config.Secret;
import io.skippr.config.catalog.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Resolves {@code ${VAR}} references and defaults when a run starts, never earlier. */
public final class SettingsResolver {
    private final Map<String, String> env;
    private final String file;
    private final java.nio.file.Path baseDir;
    private final List<ConfigError> errors = new ArrayList<>();

    public SettingsResolver(Map<String, String> env, String file) {
        this.env = env;
        this.file = file;
        this.baseDir = java.nio.file.Path.of(file).toAbsolutePath().getParent();
    }

    /** Resolves one entry; errors are kept until {@link #throwIfErrors()}. */
    public ResolvedSettings resolve(ConnectorEntry entry) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Field field : entry.kind().fields()) {
            Object raw = entry.settings().get(field.name());
            if (raw == null && field.defaultValue() != null) {
                raw = field.defaultValue();
            }
            if (raw == null) {
                continue;
            }
            Object value = resolveValue(entry, field, raw);
            if (value != null) {
                values.put(
                        field.name(),
                        field.isSecret()
                                ? Secret.resolved(
                                        String.valueOf(raw),
                                        entry.path() + "." + field.name(),
                                        value.toString())
                                : value);
            }
        }
        return new ResolvedSettings(entry, values);
    }

    public void throwIfErrors() {
        if (!errors.isEmpty()) {
            throw new ConfigException(errors);
        }
    }

    private Object resolveValue(ConnectorEntry entry, Field field, Object raw) {
        if (raw instanceof List<?> list) {
            List<String> out = new ArrayList<>();
            list.forEach(item -> out.add(substitute(entry, field, String.valueOf(item))));
            return out;
        }
        String text = substitute(entry, field, String.valueOf(raw));
        if (text == null) {
            return null;
        }
        List<String> names = EnvRefs.names(String.valueOf(raw));
        String found =
                shown(field, text)
                        + (names.isEmpty() ? "" : " (from " + String.join(", ", names) + ")");
        return switch (field.type()) {
            case INTEGER -> parseInteger(entry, field, text, found);
            case BOOLEAN -> parseBoolean(entry, field, text, found);
            case PATH -> absolute(text);
            default -> checkChoice(entry, field, text, found);
        };
    }

    private String substitute(ConnectorEntry entry, Field field, String text) {
        List<String> missing = new ArrayList<>();
        for (String name : EnvRefs.names(text)) {
            if (env.get(name) == null) {
                missing.add(name);
            }
        }
        for (String name : missing) {
            error(
                    entry,
                    field,
                    "environment variable "
                            + name
                            + " is not set; the "
                            + entry.section().label()
                            + " '"
                            + entry.name()
                            + "' needs it (export "
                            + name
                            + "=...)");
        }
        if (!missing.isEmpty()) {
            return null;
        }
        return EnvRefs.substitute(text, env::get);
    }

    /** A path relative to the config file's folder; {@code ~/} is the user's home. */
    private String absolute(String text) {
        if (text.equals("~") || text.startsWith("~/")) {
            return java.nio.file.Path.of(System.getProperty("user.home") + text.substring(1))
                    .normalize()
                    .toString();
        }
        return baseDir.resolve(text).normalize().toString();
    }

    private Long parseInteger(ConnectorEntry entry, Field field, String text, String found) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            error(entry, field, "expected an integer from the environment, found " + found);
            return null;
        }
    }

    private Boolean parseBoolean(ConnectorEntry entry, Field field, String text, String found) {
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
        }
        error(entry, field, "expected true or false from the environment, found " + found);
        return null;
    }

    private String checkChoice(ConnectorEntry entry, Field field, String text, String found) {
        if (!field.choices().isEmpty() && !field.choices().contains(text)) {
            error(
                    entry,
                    field,
                    "expected " + field.expected() + " from the environment, found " + found);
            return null;
        }
        return text;
    }

    private static String shown(Field field, String text) {
        return field.isSecret()
                ? "a value that is not shown because the field is secret"
                : "'" + text + "'";
    }

    private void error(ConnectorEntry entry, Field field, String message) {
        Location at = entry.locationOf(field.name());
        errors.add(
                new ConfigError(
                        file, at.line(), at.column(), entry.path() + "." + field.name(), message));
    }
}
