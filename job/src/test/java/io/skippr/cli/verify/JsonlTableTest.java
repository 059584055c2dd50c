package io.skippr.cli.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JsonlTable}: each value's text exactly as the line holds it (numbers' digits, strings
 * unescaped, a JSON column's text as embedded, whitespace and all), gzip by the name, blank lines
 * and keys not asked for skipped, and a line that is not one object named.
 */
class JsonlTableTest {
    @TempDir Path dir;

    private static String quote(String name) {
        return "\"" + name + "\"";
    }

    @Test
    void valuesAreTheTextWritten() throws Exception {
        Path file = dir.resolve("a.jsonl.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(
                    ("{\"id\":1,\"n\":12345678901234567890123.1234567890,\"j\":{\"b\": 1,  \"a\":"
                                    + " [1, \"x}]\\\"y\", 2.50]} ,\"s\":\"a,\\\"b\\\"\\nc\\\\\\u00e9"
                                    + "\\ud83d\\ude00\",\"e\":\"\",\"z\":null,\"other\":[1,{\"k\":2}]}\n"
                                    + "\n"
                                    + "{\"id\":2,\"j\":null,\"s\":\"plain\"}\n"
                                    + "{\"id\":3,\"j\":\"str\",\"s\":\"\",\"n\":-1.5E+3}")
                            .getBytes(StandardCharsets.UTF_8));
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement()) {
            Set<String> present =
                    new JsonlTable(List.of("id", "n", "j", "s", "e", "z", "absent"), Set.of("j"))
                            .load(c, "t", List.of(file), JsonlTableTest::quote);
            assertThat(present).containsExactlyInAnyOrder("id", "n", "j", "s", "e", "z");
            List<String> rows = new ArrayList<>();
            try (ResultSet r =
                    s.executeQuery("SELECT id, n, j, s, e, z, absent FROM t ORDER BY id")) {
                while (r.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= 7; i++) {
                        row.add(r.getString(i) == null ? "<null>" : "[" + r.getString(i) + "]");
                    }
                    rows.add(String.join(" ", row));
                }
            }
            assertThat(rows)
                    .containsExactly(
                            "[1] [12345678901234567890123.1234567890] [{\"b\": 1,  \"a\": [1,"
                                    + " \"x}]\\\"y\", 2.50]} ] [a,\"b\"\nc\\é😀] [] <null> <null>",
                            "[2] <null> <null> [plain] <null> <null> <null>",
                            "[3] [-1.5E+3] [\"str\"] [] <null> <null> <null>");
        }
    }

    @Test
    void aLineThatIsNotOneObjectIsNamed() throws Exception {
        Path file = dir.resolve("b.jsonl");
        Files.writeString(file, "{\"id\":1}\n{\"id\":4,\"s\":\"x\"\n");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            JsonlTable table = new JsonlTable(List.of("id", "s"), Set.of());
            assertThatThrownBy(() -> table.load(c, "t", List.of(file), JsonlTableTest::quote))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage(
                            "cannot read "
                                    + file
                                    + " line 2: not a JSON object as the sink writes one: ','"
                                    + " expected at column 16");
        }
    }
}
