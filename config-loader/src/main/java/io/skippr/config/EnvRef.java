package io.skippr.config;

import java.util.regex.Pattern;

/**
 * A value taken from an environment variable when a run starts: written as {@code ${NAME}} in
 * {@code skippr.yml}, never as the value itself.
 */
public record EnvRef(String name) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    public EnvRef {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "environment variable names are letters, digits and _, not starting with a"
                            + " digit: "
                            + name);
        }
    }

    /** The YAML text: {@code ${NAME}}. */
    @Override
    public String toString() {
        return "${" + name + "}";
    }
}
