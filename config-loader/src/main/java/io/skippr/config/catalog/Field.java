package io.skippr.config.catalog;

import java.util.List;
import java.util.Objects;

/**
 * One setting of a connector kind, declared once. YAML validation, the {@code skipprd connect}
 * flags, the Java builder classes, the saved YAML and the docs pages are all derived from it.
 *
 * @param name the YAML key, lower snake_case
 * @param type the value type
 * @param isRequired whether the entry is invalid without it
 * @param defaultValue the value used when the field is absent, as YAML text, or null for none
 * @param isSecret whether the value is a credential: never echoed in messages, written back as
 *     {@code ${VAR}} only
 * @param description one line for help, docs and error messages
 * @param choices the allowed values, or empty for any value of the type
 */
public record Field(
        String name,
        FieldType type,
        boolean isRequired,
        String defaultValue,
        boolean isSecret,
        String description,
        List<String> choices) {

    public Field {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(description, "description");
        choices = List.copyOf(choices);
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException("field name must be lower snake_case: " + name);
        }
        if (isRequired && defaultValue != null) {
            throw new IllegalArgumentException("a required field has no default: " + name);
        }
    }

    public static Field string(String name, String description) {
        return new Field(name, FieldType.STRING, false, null, false, description, List.of());
    }

    /** A local file, folder or glob; relative to the folder of skippr.yml when a run uses it. */
    public static Field path(String name, String description) {
        return new Field(name, FieldType.PATH, false, null, false, description, List.of());
    }

    public static Field integer(String name, String description) {
        return new Field(name, FieldType.INTEGER, false, null, false, description, List.of());
    }

    public static Field bool(String name, String description) {
        return new Field(name, FieldType.BOOLEAN, false, null, false, description, List.of());
    }

    public static Field list(String name, String description) {
        return new Field(name, FieldType.STRING_LIST, false, null, false, description, List.of());
    }

    public static Field choice(String name, String description, String... choices) {
        return new Field(name, FieldType.STRING, false, null, false, description, List.of(choices));
    }

    public Field required() {
        return new Field(name, type, true, null, isSecret, description, choices);
    }

    public Field defaultsTo(Object value) {
        return new Field(name, type, false, String.valueOf(value), isSecret, description, choices);
    }

    public Field secret() {
        return new Field(name, type, isRequired, defaultValue, true, description, choices);
    }

    /** The {@code skipprd connect} flag: {@code s3_prefix} is {@code --s3-prefix}. */
    public String flag() {
        return "--" + name.replace('_', '-');
    }

    /** The Java builder method: {@code s3_prefix} is {@code s3Prefix}. */
    public String javaName() {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : name.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    /** What a valid value looks like, for error messages and help. */
    public String expected() {
        if (choices.isEmpty()) {
            return type.expected();
        }
        return "one of " + String.join(", ", choices);
    }

    /** Whether {@code value}, given as YAML text, is this field's default. */
    public boolean isDefault(String value) {
        return defaultValue != null && defaultValue.equals(value);
    }
}
