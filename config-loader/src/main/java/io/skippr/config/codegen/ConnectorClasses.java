package io.skippr.config.codegen;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.FieldType;
import io.skippr.config.catalog.KindSpec;

/**
 * Writes the Java builder class of a kind ({@code DataSinkPostgres}) from its catalog declaration,
 * so the Java API can never disagree with the catalog.
 */
public final class ConnectorClasses {
    public static final String PACKAGE = "io.skippr.config.connectors";

    private ConnectorClasses() {}

    public static String source(KindSpec kind) {
        String cls = kind.className();
        StringBuilder out = new StringBuilder();
        out.append("// Generated from the connector catalog by scripts/generate; do not edit.\n");
        out.append("package ").append(PACKAGE).append(";\n\n");
        out.append("import io.skippr.config.Connector;\n");
        if (kind.fields().stream().anyMatch(f -> f.type() != FieldType.STRING_LIST)) {
            out.append("import io.skippr.config.EnvRef;\n");
        }
        out.append("import io.skippr.config.catalog.Role;\n");
        if (kind.fields().stream().anyMatch(f -> f.type() == FieldType.STRING_LIST)) {
            out.append("import java.util.List;\n");
        }
        out.append("\n/** ")
                .append(kind.title())
                .append(" ")
                .append(kind.role().label())
                .append(". ")
                .append(kind.description())
                .append(". */\n");
        out.append("public final class ")
                .append(cls)
                .append(" extends Connector<")
                .append(cls)
                .append("> {\n");
        out.append("    public ").append(cls).append("() {\n");
        out.append("        super(Role.")
                .append(kind.role().name())
                .append(", \"")
                .append(kind.name())
                .append("\");\n");
        out.append("    }\n");
        for (Field field : kind.fields()) {
            String doc = javadoc(field);
            if (field.type() == FieldType.STRING_LIST) {
                setter(out, cls, field, doc, "List<String>", "value");
                setter(out, cls, field, doc, "String...", "List.of(value)");
            } else {
                String type =
                        field.type() == FieldType.INTEGER
                                ? "long"
                                : field.type() == FieldType.BOOLEAN ? "boolean" : "String";
                setter(out, cls, field, doc, type, "value");
                setter(out, cls, field, doc + " From an environment variable.", "EnvRef", "value");
            }
        }
        out.append("}\n");
        return out.toString();
    }

    private static void setter(
            StringBuilder out, String cls, Field field, String doc, String type, String value) {
        out.append("\n    /** ").append(doc).append(" */\n");
        out.append("    public ")
                .append(cls)
                .append(" ")
                .append(field.javaName())
                .append("(")
                .append(type)
                .append(" value) {\n");
        out.append("        return set(\"")
                .append(field.name())
                .append("\", ")
                .append(value)
                .append(");\n");
        out.append("    }\n");
    }

    private static String javadoc(Field field) {
        return describe(field).replace("*/", "*&#47;");
    }

    /** A field's description, with what is required, its default, its choices, its secrecy. */
    static String describe(Field field) {
        StringBuilder doc = new StringBuilder(field.description()).append('.');
        if (field.isRequired()) {
            doc.append(" Required.");
        }
        if (field.defaultValue() != null) {
            doc.append(" Default: ").append(field.defaultValue()).append('.');
        }
        if (!field.choices().isEmpty()) {
            doc.append(" One of ").append(String.join(", ", field.choices())).append('.');
        }
        if (field.isSecret()) {
            doc.append(" Secret: prefer an EnvRef.");
        }
        return doc.toString();
    }
}
