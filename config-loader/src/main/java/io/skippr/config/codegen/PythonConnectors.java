package io.skippr.config.codegen;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.KindSpec;
import java.util.List;
import java.util.Set;

/**
 * Writes {@code python/skippr/connectors.py}, the Python package's connector classes ({@code
 * DataSinkPostgres(host=..., password=EnvRef("PW"))}), from the catalog: one keyword argument per
 * field, so the Python API can never disagree with the catalog. Values are checked by the Java
 * loader when the config is saved.
 */
public final class PythonConnectors {
    /** The file, from the repository's root. */
    public static final String FILE = "python/skippr/connectors.py";

    /** Field names Python reserves: the argument takes a trailing underscore. */
    private static final Set<String> KEYWORDS =
            Set.of(
                    "and",
                    "as",
                    "assert",
                    "async",
                    "await",
                    "break",
                    "class",
                    "continue",
                    "def",
                    "del",
                    "elif",
                    "else",
                    "except",
                    "finally",
                    "for",
                    "from",
                    "global",
                    "if",
                    "import",
                    "in",
                    "is",
                    "lambda",
                    "nonlocal",
                    "not",
                    "or",
                    "pass",
                    "raise",
                    "return",
                    "try",
                    "while",
                    "with",
                    "yield",
                    "match",
                    "case");

    private PythonConnectors() {}

    public static String source(List<KindSpec> kinds) {
        StringBuilder out = new StringBuilder();
        out.append("# Generated from the connector catalog by scripts/generate; do not edit.\n");
        out.append("\"\"\"The connectors of every kind the catalog declares.\"\"\"\n\n");
        out.append("from __future__ import annotations\n\n");
        out.append("from typing import List, Optional, Union\n\n");
        out.append("from ._connector import Connector, EnvRef\n\n");
        out.append("__all__ = [\n");
        for (KindSpec kind : kinds) {
            out.append("    \"").append(kind.className()).append("\",\n");
        }
        out.append("]\n");
        for (KindSpec kind : kinds) {
            kindClass(out, kind);
        }
        return out.toString();
    }

    private static void kindClass(StringBuilder out, KindSpec kind) {
        out.append("\n\nclass ").append(kind.className()).append("(Connector):\n");
        out.append("    \"\"\"")
                .append(kind.title())
                .append(" ")
                .append(kind.role().label())
                .append(". ")
                .append(kind.description())
                .append(".");
        if (!kind.fields().isEmpty()) {
            out.append("\n\n    Args:\n");
            for (Field field : kind.fields()) {
                out.append("        ")
                        .append(argument(field))
                        .append(": ")
                        .append(ConnectorClasses.describe(field).replace("\"\"\"", "'''"))
                        .append("\n");
            }
            out.append("    ");
        }
        out.append("\"\"\"\n\n");
        out.append("    _role = \"").append(kind.role().name().toLowerCase()).append("\"\n");
        out.append("    _kind = \"").append(kind.name()).append("\"\n");
        List<String> secrets =
                kind.fields().stream().filter(Field::isSecret).map(Field::name).toList();
        if (!secrets.isEmpty()) {
            out.append("    _secrets = (")
                    .append(
                            secrets.stream()
                                    .map(f -> "\"" + f + "\",")
                                    .collect(java.util.stream.Collectors.joining(" ")))
                    .append(")\n");
        }
        out.append("\n");
        out.append("    def __init__(\n        self,\n");
        if (!kind.fields().isEmpty()) {
            out.append("        *,\n");
        }
        for (Field field : kind.fields()) {
            out.append("        ")
                    .append(argument(field))
                    .append(": Optional[")
                    .append(type(field))
                    .append("] = None,\n");
        }
        out.append("    ) -> None:\n");
        out.append("        super().__init__(\n");
        for (Field field : kind.fields()) {
            out.append("            (\"")
                    .append(field.name())
                    .append("\", ")
                    .append(argument(field))
                    .append("),\n");
        }
        out.append("        )\n");
    }

    private static String argument(Field field) {
        return KEYWORDS.contains(field.name()) ? field.name() + "_" : field.name();
    }

    private static String type(Field field) {
        return switch (field.type()) {
            case STRING, PATH -> "Union[str, EnvRef]";
            case INTEGER -> "Union[int, EnvRef]";
            case BOOLEAN -> "Union[bool, EnvRef]";
            case STRING_LIST -> "List[str]";
        };
    }
}
