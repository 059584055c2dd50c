package io.skippr.config.model;

import io.skippr.config.Secret;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A connector entry's settings as a run uses them: environment references substituted, defaults
 * applied, values typed, secret fields wrapped in {@link Secret}. Printing it shows no secret.
 */
public record ResolvedSettings(ConnectorEntry entry, Map<String, Object> values) {

    public ResolvedSettings {
        values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
    }

    public Optional<String> string(String field) {
        Object value = values.get(field);
        return value == null ? Optional.empty() : Optional.of(String.valueOf(value));
    }

    public String requireString(String field) {
        return string(field).orElseThrow(() -> new IllegalStateException(field + " is not set"));
    }

    public Optional<Long> integer(String field) {
        return Optional.ofNullable((Long) values.get(field));
    }

    public boolean bool(String field) {
        return Boolean.TRUE.equals(values.get(field));
    }

    @SuppressWarnings("unchecked")
    public List<String> list(String field) {
        Object value = values.get(field);
        return value == null ? List.of() : (List<String>) value;
    }

    public Optional<Secret> secret(String field) {
        return Optional.ofNullable((Secret) values.get(field));
    }
}
