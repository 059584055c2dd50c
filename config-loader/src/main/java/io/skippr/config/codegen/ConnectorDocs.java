package io.skippr.config.codegen;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.FieldType;
import io.skippr.config.catalog.KindSpec;
import io.skippr.config.catalog.Role;
import java.util.List;

/**
 * Writes the generated part of a connector's docs page (fields, YAML and CLI examples, guarantee)
 * from the catalog. Hand-written text outside the markers is kept.
 */
public final class ConnectorDocs {
    public static final String BEGIN =
            "<!-- BEGIN GENERATED from the connector catalog by scripts/generate; edit the catalog,"
                    + " not this block -->";
    public static final String END = "<!-- END GENERATED -->";

    private ConnectorDocs() {}

    /** The page's file name: {@code postgres.md}. */
    public static String fileName(KindSpec kind) {
        return kind.command() + ".md";
    }

    /** {@code page} with its generated block replaced, or a new page if {@code page} is null. */
    public static String update(String page, List<KindSpec> kinds) {
        String block = block(kinds);
        if (page == null) {
            return "# "
                    + kinds.get(0).title()
                    + " (`"
                    + kinds.get(0).name()
                    + "`)\n\n"
                    + block
                    + "\n";
        }
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        if (begin < 0 || end < begin) {
            return page.stripTrailing() + "\n\n" + block + "\n";
        }
        return page.substring(0, begin) + block + page.substring(end + END.length());
    }

    /** The generated block of {@code page}, or null if it has none. */
    public static String extract(String page) {
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        return begin < 0 || end < begin ? null : page.substring(begin, end + END.length());
    }

    public static String block(List<KindSpec> kinds) {
        StringBuilder out = new StringBuilder(BEGIN).append('\n');
        for (KindSpec kind : kinds) {
            out.append("\n## As a ").append(kind.role().label()).append("\n\n");
            out.append(kind.description()).append(".\n\n");
            if (kind.role() == Role.DATA_SINK) {
                out.append("Delivery guarantee: **")
                        .append(kind.guarantee().label())
                        .append("**.\n\n");
                if (kind.paired()) {
                    out.append(
                                    "Paired: one `dataSink(...)` call or one `skipprd connect data-sink ")
                            .append(kind.command())
                            .append("` writes both the data sink and a ")
                            .append(kind.name())
                            .append(
                                    " schema sink of the same name; the two"
                                            + " copies must hold identical settings or Skippr refuses to"
                                            + " run.\n\n");
                } else if (kind.takesSchemaSink()) {
                    out.append("Takes a schema sink: ")
                            .append(String.join(", ", kind.schemaSinks()))
                            .append(" (link it with `schema_sink:`).\n\n");
                }
            }
            fieldTable(out, kind);
            example(out, kind);
        }
        return out.append('\n').append(END).toString();
    }

    private static void fieldTable(StringBuilder out, KindSpec kind) {
        if (kind.fields().isEmpty()) {
            out.append(kind.name()).append(" takes no fields.\n\n");
            return;
        }
        out.append("| Field | Flag | Type | Required | Default | Description |\n");
        out.append("|---|---|---|---|---|---|\n");
        for (Field f : kind.fields()) {
            out.append("| `")
                    .append(f.name())
                    .append("` | `")
                    .append(f.flag())
                    .append("` | ")
                    .append(type(f))
                    .append(" | ")
                    .append(f.isRequired() ? "yes" : "no")
                    .append(" | ")
                    .append(f.defaultValue() == null ? "" : "`" + f.defaultValue() + "`")
                    .append(" | ")
                    .append(f.description().replace("|", "\\|"))
                    .append(f.isSecret() ? " (secret: write `${VAR}`)" : "")
                    .append(" |\n");
        }
        out.append('\n');
    }

    private static String type(Field f) {
        if (!f.choices().isEmpty()) {
            return String.join(" \\| ", f.choices().stream().map(c -> "`" + c + "`").toList());
        }
        return switch (f.type()) {
            case STRING -> "string";
            case PATH -> "path (relative to skippr.yml)";
            case INTEGER -> "integer";
            case BOOLEAN -> "boolean";
            case STRING_LIST -> "list of strings";
        };
    }

    private static void example(StringBuilder out, KindSpec kind) {
        String section =
                switch (kind.role()) {
                    case DATA_SOURCE -> "data_sources";
                    case DATA_SINK -> "data_sinks";
                    case SCHEMA_SINK -> "schema_sinks";
                };
        List<Field> required = kind.fields().stream().filter(Field::isRequired).toList();
        out.append("```yaml\n")
                .append(section)
                .append(":\n  my_")
                .append(kind.command())
                .append(":\n    ")
                .append(kind.name())
                .append(':');
        if (required.isEmpty()) {
            out.append(" {}\n");
        } else {
            out.append('\n');
            for (Field f : required) {
                out.append("      ")
                        .append(f.name())
                        .append(": ")
                        .append(placeholder(kind, f))
                        .append('\n');
            }
        }
        out.append("```\n\n");
        if (kind.role() == Role.SCHEMA_SINK && kind.paired()) {
            return;
        }
        out.append("```bash\nskipprd connect ")
                .append(kind.role().command())
                .append(' ')
                .append(kind.command())
                .append(" --pipeline orders --name my_")
                .append(kind.command());
        for (Field f : required) {
            out.append(" \\\n  ").append(f.flag()).append(' ');
            String value = placeholder(kind, f);
            out.append(f.isSecret() ? "'" + value + "'" : value);
        }
        out.append("\n```\n\n");
    }

    private static String placeholder(KindSpec kind, Field f) {
        if (f.isSecret()) {
            return "${" + (kind.name() + "_" + f.name()).toUpperCase(java.util.Locale.ROOT) + "}";
        }
        return f.type() == FieldType.INTEGER ? "1" : "<" + f.name() + ">";
    }
}
