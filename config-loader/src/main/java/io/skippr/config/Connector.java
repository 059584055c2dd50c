package io.skippr.config;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.FieldType;
import io.skippr.config.catalog.KindSpec;
import io.skippr.config.catalog.Role;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings of one connector, built in Java: the base of the generated {@code DataSink*}, {@code
 * SchemaSink*} and {@code DataSource*} classes. Only the catalog's fields can be set.
 *
 * @param <T> the concrete class, for fluent setters
 */
public abstract class Connector<T extends Connector<T>> {
    private final KindSpec kind;
    private final Map<String, Object> values = new LinkedHashMap<>();

    protected Connector(Role role, String kind) {
        this(Catalog.get().get(role, kind));
    }

    protected Connector(KindSpec kind) {
        this.kind = kind;
    }

    /** A connector of any kind, set field by field: what {@code skipprd connect} builds. */
    public static Generic of(KindSpec kind) {
        return new Generic(kind);
    }

    public KindSpec kind() {
        return kind;
    }

    /** The values set, by field name: String, Long, Boolean, List of String or {@link EnvRef}. */
    public Map<String, Object> values() {
        return Collections.unmodifiableMap(values);
    }

    @SuppressWarnings("unchecked")
    protected T set(String fieldName, Object value) {
        Field field =
                kind.field(fieldName)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                kind.name() + " has no field " + fieldName));
        values.put(fieldName, checked(field, value));
        return (T) this;
    }

    private Object checked(Field field, Object value) {
        if (value == null || value instanceof EnvRef) {
            return value;
        }
        boolean ok =
                switch (field.type()) {
                    case STRING, PATH -> value instanceof String;
                    case INTEGER -> value instanceof Integer || value instanceof Long;
                    case BOOLEAN -> value instanceof Boolean;
                    case STRING_LIST -> value instanceof List<?>;
                };
        if (!ok) {
            throw new IllegalArgumentException(
                    kind.name()
                            + "."
                            + field.name()
                            + " takes "
                            + field.expected()
                            + ", not "
                            + shown(field, value));
        }
        if (field.type() == FieldType.INTEGER) {
            return ((Number) value).longValue();
        }
        if (field.type() == FieldType.STRING_LIST) {
            return List.copyOf((List<?>) value).stream().map(String::valueOf).toList();
        }
        if (!field.choices().isEmpty() && !field.choices().contains(value)) {
            throw new IllegalArgumentException(
                    kind.name()
                            + "."
                            + field.name()
                            + " takes "
                            + field.expected()
                            + ", not "
                            + shown(field, value));
        }
        return value;
    }

    /** {@code value} as an error may show it: never a secret field's. */
    private static String shown(Field field, Object value) {
        return field.isSecret()
                ? "a value that is not shown because the field is secret"
                : String.valueOf(value);
    }

    /** A connector of a kind known only at run time. */
    public static final class Generic extends Connector<Generic> {
        private Generic(KindSpec kind) {
            super(kind);
        }

        public Generic with(String fieldName, Object value) {
            return set(fieldName, value);
        }
    }
}
