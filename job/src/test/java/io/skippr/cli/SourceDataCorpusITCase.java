package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.files.CommitLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad source data, through {@code skipprd sync --once} from a LocalFile source into a LocalFile
 * sink with a deadletter sink: each case names what it checks, the run succeeds, every record read
 * is either written or deadlettered (nothing is lost), and each deadletter says why.
 */
class SourceDataCorpusITCase {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path dir;

    /**
     * @param written the values of column {@code id} that land, in file order
     * @param reasons text each deadletter's error message holds, in file order
     * @param column a value column the case is about, or null
     * @param values that column of each landed row, in file order, as its JSON text: its type as
     *     well as its value ({@code "1"} is text, {@code 1} a number)
     */
    record Case(
            String name,
            String file,
            byte[] content,
            int read,
            List<String> written,
            List<String> reasons,
            String column,
            List<String> values) {
        Case(
                String name,
                String file,
                byte[] content,
                int read,
                List<String> written,
                List<String> reasons) {
            this(name, file, content, read, written, reasons, null, List.of());
        }

        /** The case, also checking {@code column} of each landed row. */
        Case landing(String column, String... values) {
            return new Case(name, file, content, read, written, reasons, column, List.of(values));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    static Stream<Case> cases() {
        String big = "x".repeat(5 * 1024 * 1024);
        return Stream.of(
                new Case(
                                "csv: a field that is not UTF-8 is a deadletter, its neighbours land",
                                "data.csv",
                                bytes("id,name\n1,alice\n2,b\u00ffob\n3,carol\n"),
                                3,
                                List.of("1", "3"),
                                List.of("invalid UTF-8 byte sequence"))
                        .landing("name", "\"alice\"", "\"carol\""),
                new Case(
                        "jsonl: a line that is not UTF-8 is a deadletter",
                        "data.jsonl",
                        bytes("{\"id\":1}\n{\"id\":2,\"v\":\"\u00ff\"}\n{\"id\":3}\n"),
                        3,
                        List.of("1", "3"),
                        List.of("invalid UTF-8 byte sequence")),
                new Case(
                        "jsonl: a line that is not JSON is a deadletter naming the column",
                        "data.jsonl",
                        bytes("{\"id\":1}\nnot json\n"),
                        2,
                        List.of("1"),
                        List.of("invalid JSON at column 4: Unrecognized token 'not'")),
                new Case(
                        "jsonl: a bare NaN is not JSON and is a deadletter",
                        "data.jsonl",
                        bytes("{\"id\":1,\"v\":NaN}\n{\"id\":2,\"v\":1.5}\n"),
                        2,
                        List.of("2"),
                        List.of("Non-standard token 'NaN'")),
                new Case(
                        "jsonl: a last line cut short is a deadletter",
                        "data.jsonl",
                        bytes("{\"id\":1}\n{\"id\":2,\"v\":\"x\""),
                        2,
                        List.of("1"),
                        List.of("Unexpected end-of-input")),
                new Case(
                        "csv: a row with more fields than the header is a deadletter",
                        "data.csv",
                        bytes("id,name\n1,a\n2,a,b,c\n"),
                        2,
                        List.of("1"),
                        List.of("expected 2 fields as in the header but found 4")),
                new Case(
                        "csv: a row with fewer fields than the header is a deadletter",
                        "data.csv",
                        bytes("id,name\n1,a\n2\n"),
                        2,
                        List.of("1"),
                        List.of("expected 2 fields as in the header but found 1")),
                new Case(
                        "csv: an unterminated quote at the end is a deadletter",
                        "data.csv",
                        bytes("id,name\n1,a\n2,\"open\n"),
                        2,
                        List.of("1"),
                        List.of("unterminated quoted field")),
                new Case(
                                "csv: NaN and text in a numeric column keep the column as text, nothing"
                                        + " lost",
                                "data.csv",
                                bytes("id,amount\n1,10.5\n2,NaN\n3,abc\n"),
                                3,
                                List.of("1", "2", "3"),
                                List.of())
                        .landing("amount", "\"10.5\"", "\"NaN\"", "\"abc\""),
                new Case(
                                "jsonl: a key of mixed types becomes text, nothing lost",
                                "data.jsonl",
                                bytes("{\"id\":1}\n{\"id\":\"five\"}\n{\"id\":null}\n"),
                                3,
                                Stream.of("1", "five", null).toList(),
                                List.of())
                        .landing("id", "\"1\"", "\"five\"", "null"),
                new Case(
                        "csv: an empty key field lands as null",
                        "data.csv",
                        bytes("id,name\n1,a\n,b\n"),
                        2,
                        Stream.of("1", null).toList(),
                        List.of()),
                new Case(
                                "jsonl: a NUL character in text lands as it is",
                                "data.jsonl",
                                bytes("{\"id\":1,\"v\":\"a\\u0000b\"}\n"),
                                1,
                                List.of("1"),
                                List.of())
                        .landing("v", "\"a\\u0000b\""),
                new Case(
                        "jsonl: a 5 MiB value lands whole",
                        "data.jsonl",
                        bytes("{\"id\":1,\"v\":\"" + big + "\"}\n{\"id\":2,\"v\":\"y\"}\n"),
                        2,
                        List.of("1", "2"),
                        List.of()),
                new Case(
                        "csv: a file with only a header syncs nothing and succeeds",
                        "data.csv",
                        bytes("id,name\n"),
                        0,
                        List.of(),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void isDeadletteredOrLandsAndNothingIsLost(Case c) throws Exception {
        Files.write(dir.resolve(c.file()), c.content());
        Files.writeString(
                dir.resolve("skippr.yml"),
                "pipelines:\n  p:\n    data_source: data_sources.files\n"
                        + "    data_sink: data_sinks.out\n"
                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                        + "data_sources:\n  files:\n    LocalFile:\n      path: "
                        + c.file()
                        + "\n      stream: events\n"
                        + "data_sinks:\n  out:\n    LocalFile:\n      path: out\n"
                        + "      format: jsonl\n"
                        + "deadletter_sinks:\n  rejects:\n    LocalFile:\n      path: rejects\n"
                        + "      format: jsonl\n");

        CliRun run = CliRun.syncOnce(dir, dir.resolve("skippr.yml"), "p");

        assertThat(run.exitCode()).as(run.all()).isZero();
        assertThat(run.err())
                .contains(
                        "Pipeline sync complete: "
                                + (c.read() == 0 ? "0" : "1")
                                + " streams, "
                                + c.read()
                                + " records read, "
                                + c.written().size()
                                + " written, "
                                + c.reasons().size()
                                + " deadlettered");
        assertLanded(c, lines(dir.resolve("out")));
        List<JsonNode> deadletters = lines(dir.resolve("rejects"));
        assertThat(deadletters).hasSameSizeAs(c.reasons());
        for (int i = 0; i < deadletters.size(); i++) {
            JsonNode d = deadletters.get(i);
            assertThat(d.path("error_message").asText()).contains(c.reasons().get(i));
            assertThat(d.path("stage").asText()).isEqualTo("transform");
            assertThat(d.path("pipeline").asText()).isEqualTo("p");
            assertThat(d.path("source_position").asText()).contains(c.file() + "#");
        }
    }

    /** Checks the rows that landed: their keys, and the case's value column as JSON text. */
    private static void assertLanded(Case c, List<JsonNode> landed) {
        assertThat(landed.stream().map(r -> r.path("id").isNull() ? null : r.path("id").asText()))
                .containsExactlyElementsOf(c.written());
        if (c.name().contains("5 MiB")) {
            assertThat(landed.get(0).path("v").asText()).hasSize(5 * 1024 * 1024);
        }
        if (c.column() != null) {
            String column = c.column();
            assertThat(
                            landed.stream()
                                    .map(r -> r.has(column) ? r.get(column).toString() : "absent"))
                    .as("column " + c.column() + " of each landed row, as JSON")
                    .containsExactlyElementsOf(c.values());
        }
    }

    private static Case named(String fragment) {
        return cases().filter(c -> c.name().contains(fragment)).findFirst().orElseThrow();
    }

    private static List<JsonNode> rows(String... lines) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        for (String line : lines) {
            rows.add(JSON.readTree(line));
        }
        return rows;
    }

    /** A sink that strips the NUL character, or drops the text after it, fails the check. */
    @Test
    void aNulCharacterStrippedOnTheWayFailsTheCheck() throws Exception {
        Case c = named("a NUL character");
        assertLanded(c, rows("{\"id\":1,\"v\":\"a\\u0000b\"}"));
        assertThatThrownBy(() -> assertLanded(c, rows("{\"id\":1,\"v\":\"ab\"}")))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> assertLanded(c, rows("{\"id\":1,\"v\":\"a\"}")))
                .isInstanceOf(AssertionError.class);
    }

    /** A numeric column that kept NaN as a number (or lost "abc") fails the check. */
    @Test
    void aColumnOfNumbersAndTextThatLandsAsNumbersFailsTheCheck() throws Exception {
        Case c = named("NaN and text");
        String[] intact = {
            "{\"id\":1,\"amount\":\"10.5\"}",
            "{\"id\":2,\"amount\":\"NaN\"}",
            "{\"id\":3,\"amount\":\"abc\"}"
        };
        assertLanded(c, rows(intact));
        assertThatThrownBy(
                        () ->
                                assertLanded(
                                        c,
                                        rows("{\"id\":1,\"amount\":10.5}", intact[1], intact[2])))
                .isInstanceOf(AssertionError.class);
        assertThatThrownBy(
                        () ->
                                assertLanded(
                                        c,
                                        rows(intact[0], intact[1], "{\"id\":3,\"amount\":null}")))
                .isInstanceOf(AssertionError.class);
    }

    /** A key of mixed types that landed as a number where it was one fails the check. */
    @Test
    void aMixedKeyThatKeepsItsNumberTypeFailsTheCheck() throws Exception {
        Case c = named("mixed types");
        String[] intact = {"{\"id\":\"1\"}", "{\"id\":\"five\"}", "{\"id\":null}"};
        assertLanded(c, rows(intact));
        assertThatThrownBy(() -> assertLanded(c, rows("{\"id\":1}", intact[1], intact[2])))
                .isInstanceOf(AssertionError.class);
    }

    /** The committed JSON lines under {@code root}, in source order. */
    private static List<JsonNode> lines(Path root) throws Exception {
        List<JsonNode> rows = new ArrayList<>();
        if (!Files.exists(root)) {
            return rows;
        }
        for (String file : new CommitLog(root).committedFiles()) {
            for (String line : Files.readAllLines(Path.of(file))) {
                rows.add(JSON.readTree(line));
            }
        }
        rows.sort(Comparator.comparing(SourceDataCorpusITCase::order));
        return rows;
    }

    /** A row's place in the source file: deadletters name it, rows carry their synced order. */
    private static String order(JsonNode row) {
        String position = row.path("source_position").asText("");
        if (!position.isEmpty()) {
            return String.format("%09d", Long.parseLong(position.replaceAll(".*#", "")));
        }
        return row.path("_skippr_synced_at").asText();
    }
}
