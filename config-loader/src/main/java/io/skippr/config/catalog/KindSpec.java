package io.skippr.config.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A connector kind in one role: its YAML tag ({@code Postgres}), its fields, and for data sinks
 * which schema sinks it takes. Declared once, in a {@link KindProvider}.
 *
 * @param name the YAML tag, CamelCase
 * @param role what it does in a pipeline
 * @param title the product's name for people ("PostgreSQL")
 * @param description one line on what it does in this role
 * @param fields the settings, in the order they are written and documented
 * @param schemaSinks for a data sink, the schema-sink kinds it can link; empty if it takes none
 * @param paired for a data sink or schema sink, whether the kind is paired: the data sink and its
 *     schema sink are the same kind and must hold identical settings
 * @param guarantee for a data sink, its delivery guarantee
 */
public record KindSpec(
        String name,
        Role role,
        String title,
        String description,
        List<Field> fields,
        List<String> schemaSinks,
        boolean paired,
        Guarantee guarantee) {

    public KindSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        fields = List.copyOf(fields);
        schemaSinks = List.copyOf(schemaSinks);
        if (!name.matches("[A-Z][A-Za-z0-9]*")) {
            throw new IllegalArgumentException("kind name must be CamelCase: " + name);
        }
        List<String> seen = new ArrayList<>();
        for (Field field : fields) {
            if (seen.contains(field.name())) {
                throw new IllegalArgumentException(name + " declares " + field.name() + " twice");
            }
            seen.add(field.name());
        }
    }

    public static Builder dataSink(String name, String title, Guarantee guarantee) {
        return new Builder(name, Role.DATA_SINK, title).guarantee(guarantee);
    }

    public static Builder schemaSink(String name, String title) {
        return new Builder(name, Role.SCHEMA_SINK, title);
    }

    public static Builder dataSource(String name, String title) {
        return new Builder(name, Role.DATA_SOURCE, title);
    }

    public Optional<Field> field(String fieldName) {
        return fields.stream().filter(f -> f.name().equals(fieldName)).findFirst();
    }

    /** The {@code skipprd connect} subcommand: {@code AthenaIceberg} is athenaiceberg. */
    public String command() {
        return name.toLowerCase(Locale.ROOT);
    }

    /** Other accepted spellings of {@link #command()}: {@code athena-iceberg}. */
    public List<String> commandAliases() {
        String kebab = name.replaceAll("(?<=[a-z0-9])(?=[A-Z][a-z])", "-").toLowerCase(Locale.ROOT);
        return kebab.equals(command()) ? List.of() : List.of(kebab);
    }

    /** The Java builder class: {@code DataSinkPostgres}. */
    public String className() {
        return role.classPrefix() + name;
    }

    public boolean takesSchemaSink() {
        return !schemaSinks.isEmpty();
    }

    /** Fluent construction of a kind declaration. */
    public static final class Builder {
        private final String name;
        private final Role role;
        private final String title;
        private String description = "";
        private final List<Field> fields = new ArrayList<>();
        private final List<String> schemaSinks = new ArrayList<>();
        private boolean paired;
        private Guarantee guarantee = Guarantee.NOT_APPLICABLE;

        private Builder(String name, Role role, String title) {
            this.name = name;
            this.role = role;
            this.title = title;
        }

        public Builder description(String text) {
            this.description = text;
            return this;
        }

        public Builder fields(List<Field> more) {
            fields.addAll(more);
            return this;
        }

        public Builder fields(Field... more) {
            return fields(List.of(more));
        }

        public Builder schemaSinks(String... kinds) {
            schemaSinks.addAll(List.of(kinds));
            return this;
        }

        /** Paired: the data sink and its schema sink are both this kind, with equal settings. */
        public Builder paired() {
            this.paired = true;
            if (role == Role.DATA_SINK) {
                schemaSinks.add(name);
            }
            return this;
        }

        Builder guarantee(Guarantee value) {
            this.guarantee = value;
            return this;
        }

        public KindSpec build() {
            return new KindSpec(
                    name, role, title, description, fields, schemaSinks, paired, guarantee);
        }
    }
}
