package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.config.catalog.Catalog;
import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.KindSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --help works everywhere, and a kind's help lists each of its fields with its description. */
class HelpTest {
    @TempDir Path dir;

    @Test
    void everyKindsHelpListsItsFields() {
        for (KindSpec kind : Catalog.get().all()) {
            CliRun run =
                    CliRun.run(dir, "connect", kind.role().command(), kind.command(), "--help");
            assertThat(run.exitCode()).as(kind.name()).isZero();
            String help = run.out().replaceAll("\\s+", "");
            for (Field field : kind.fields()) {
                assertThat(help)
                        .as(kind.name())
                        .containsPattern(
                                java.util.regex.Pattern.quote(field.flag())
                                        + "\\[?="
                                        + field.name().toUpperCase(java.util.Locale.ROOT))
                        .contains(field.description().replaceAll("\\s+", ""));
            }
        }
    }

    @Test
    void secretHelpShowsTheReferenceSyntax() {
        CliRun run = CliRun.run(dir, "connect", "data-sink", "postgres", "--help");
        assertThat(run.out().replaceAll("\\s+", " "))
                .contains("Secret: pass '${VAR}' so the file keeps the reference")
                .contains("-h, --help");
    }

    @Test
    void theCommandIsTheFirstWordThatIsNoOptionNorItsValue() {
        // a sync is parsed without the connect commands: it must be recognised as one exactly
        assertThat(Skipprd.command(new String[] {"--config", "sync", "connect"}))
                .isEqualTo("connect");
        assertThat(Skipprd.command(new String[] {"-h", "sync", "--pipeline", "p"}))
                .isEqualTo("sync");
        assertThat(Skipprd.command(new String[] {"--config"})).isNull();
    }

    @Test
    void theTopHelpListsEveryCommand() {
        CliRun run = CliRun.run(dir, "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("connect")
                .contains("sync")
                .contains("validate")
                .contains("verify")
                .contains("history");
    }

    @Test
    void kebabCaseAliasesWork() {
        assertThat(CliRun.run(dir, "connect", "data-sink", "athena-iceberg", "--help").exitCode())
                .isZero();
    }

    @Test
    void connectHelpSaysDeadletterSinksAreWrittenInYamlOrJava() {
        CliRun run = CliRun.run(dir, "connect", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().replaceAll("\\s+", " "))
                .contains(
                        "skipprd connect does not write deadletter sinks; declare one under"
                                + " deadletter_sinks in skippr.yml, or with Config.deadletterSink(...) in"
                                + " Java")
                .contains("data-sink")
                .contains("schema-sink")
                .contains("data-source");
    }

    @Test
    void helpAndVersionEverywhere() {
        for (String[] args :
                new String[][] {
                    {"--help"},
                    {"validate", "--help"},
                    {"verify", "--help"},
                    {"history", "--help"},
                    {"connect", "data-sink", "--help"},
                    {"--version"}
                }) {
            CliRun run = CliRun.run(dir, args);
            assertThat(run.exitCode()).as(String.join(" ", args)).isZero();
            assertThat(run.out()).isNotBlank();
        }
    }
}
