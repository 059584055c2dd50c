package io.skippr.config.codegen;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.KindSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Regenerates what derives from the catalog: the Java builder classes, the Python package's
 * connector classes and the generated blocks of {@code docs/connectors/*.md}. Run by {@code
 * scripts/generate}; tests fail when these drift.
 */
public final class Generate {
    private Generate() {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".");
        Path sources =
                root.resolve("config-loader/src/main/java")
                        .resolve(ConnectorClasses.PACKAGE.replace('.', '/'));
        Files.createDirectories(sources);
        try (var old = Files.list(sources)) {
            for (Path p : old.toList()) {
                Files.delete(p);
            }
        }
        for (KindSpec kind : Catalog.get().all()) {
            Files.writeString(
                    sources.resolve(kind.className() + ".java"),
                    ConnectorClasses.source(kind),
                    StandardCharsets.UTF_8);
        }
        Path python = root.resolve(PythonConnectors.FILE);
        Files.createDirectories(python.getParent());
        Files.writeString(
                python, PythonConnectors.source(Catalog.get().all()), StandardCharsets.UTF_8);
        Path docs = root.resolve("docs/connectors");
        Files.createDirectories(docs);
        for (Map.Entry<String, List<KindSpec>> page : pages().entrySet()) {
            Path file = docs.resolve(page.getKey());
            String old = Files.exists(file) ? Files.readString(file) : null;
            Files.writeString(file, ConnectorDocs.update(old, page.getValue()));
        }
    }

    /** Docs pages by file name, each with the kinds of that name in role order. */
    public static Map<String, List<KindSpec>> pages() {
        return Catalog.get().all().stream()
                .collect(
                        Collectors.groupingBy(
                                ConnectorDocs::fileName, LinkedHashMap::new, Collectors.toList()));
    }
}
