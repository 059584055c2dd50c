package io.skippr.config.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.KindSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Java and Python connector classes and the docs field tables are what the catalog generates:
 * this fails when someone edits the catalog and forgets {@code scripts/generate}, or edits a
 * generated file.
 */
class GeneratedFilesTest {
    private static final String HOW_TO_FIX = "run scripts/generate";
    private static final Path SOURCES =
            Path.of("src/main/java").resolve(ConnectorClasses.PACKAGE.replace('.', '/'));
    private static final Path DOCS = Path.of("../docs/connectors");

    @Test
    void javaBuilderClassesMatchTheCatalog() throws IOException {
        List<KindSpec> kinds = Catalog.get().all();
        for (KindSpec kind : kinds) {
            Path file = SOURCES.resolve(kind.className() + ".java");
            assertThat(file).as(HOW_TO_FIX).exists();
            assertThat(Files.readString(file))
                    .as(file + " differs from the catalog; " + HOW_TO_FIX)
                    .isEqualTo(ConnectorClasses.source(kind));
        }
        try (Stream<Path> files = Files.list(SOURCES)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("classes for kinds the catalog no longer has; " + HOW_TO_FIX)
                    .containsExactlyInAnyOrderElementsOf(
                            kinds.stream().map(k -> k.className() + ".java").toList());
        }
    }

    @Test
    void pythonConnectorClassesMatchTheCatalog() throws IOException {
        Path file = Path.of("..").resolve(PythonConnectors.FILE);
        assertThat(file).as(HOW_TO_FIX).exists();
        assertThat(Files.readString(file))
                .as(file + " differs from the catalog; " + HOW_TO_FIX)
                .isEqualTo(PythonConnectors.source(Catalog.get().all()));
    }

    @Test
    void docsPagesHoldTheCatalogsFieldTables() throws IOException {
        for (Map.Entry<String, List<KindSpec>> page : Generate.pages().entrySet()) {
            Path file = DOCS.resolve(page.getKey());
            assertThat(file).as(HOW_TO_FIX).exists();
            assertThat(ConnectorDocs.extract(Files.readString(file)))
                    .as(file + " drifted from the catalog; " + HOW_TO_FIX)
                    .isEqualTo(ConnectorDocs.block(page.getValue()));
        }
    }

    /**
     * {@code docs/exactly-once.md} has one row per data-sink kind, and its guarantee is the one the
     * catalog declares: the page cannot drift from the catalog (nor from the connector pages, which
     * the catalog generates).
     */
    @Test
    void theExactlyOncePageStatesEachDataSinksDeclaredGuarantee() throws IOException {
        String page = Files.readString(Path.of("../docs/exactly-once.md"));
        List<String> rows =
                page.lines().filter(l -> l.matches("\\| `[A-Za-z0-9]+` \\|.*")).toList();
        List<KindSpec> sinks =
                Catalog.get().all().stream()
                        .filter(k -> k.role() == io.skippr.config.catalog.Role.DATA_SINK)
                        .toList();
        assertThat(rows.stream().map(r -> r.substring(3, r.indexOf('`', 3))))
                .as("the page's rows, one per data-sink kind")
                .containsExactlyInAnyOrderElementsOf(sinks.stream().map(KindSpec::name).toList());
        for (KindSpec sink : sinks) {
            assertThat(rows)
                    .as(sink.name() + "'s declared guarantee")
                    .anyMatch(
                            r ->
                                    r.startsWith(
                                            "| `"
                                                    + sink.name()
                                                    + "` | "
                                                    + sink.guarantee().label()
                                                    + " |"));
        }
    }

    @Test
    void updatingAPageKeepsItsHandWrittenText() {
        List<KindSpec> kinds = Generate.pages().get("postgres.md");
        String page =
                "# PostgreSQL\n\nIntro.\n\n"
                        + ConnectorDocs.BEGIN
                        + "\nold\n"
                        + ConnectorDocs.END
                        + "\n\n## How data lands\n\nHand-written.\n";
        String updated = ConnectorDocs.update(page, kinds);
        assertThat(updated)
                .startsWith("# PostgreSQL\n\nIntro.\n\n")
                .endsWith("\n\n## How data lands\n\nHand-written.\n")
                .contains("| `host` | `--host` | string | yes |")
                .doesNotContain("\nold\n");
    }
}
