package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The per-format readers on their own: values, undecodable lines, schema evolution, resume. */
class FormatReaderTest {
    @TempDir Path dir;

    @Test
    void csvValuesAreTheFileTextAndBadLinesAreUndecodable() throws IOException {
        Path file =
                TestFiles.write(
                        dir.resolve("o.csv"),
                        "id,name,amount\n1,\"Smith, J\",10.5\n2,,abc\n3,x\n\n4,\"d\"\"q\",7\n");
        FileSplit split = TestFiles.split(file, FileFormat.CSV, "orders");
        assertThat(split.schema().columns())
                .containsExactly(
                        Column.of("id", DataType.INT64),
                        Column.of("name", DataType.STRING),
                        Column.of("amount", DataType.STRING));
        List<FileRecord> records = TestFiles.readAll(split);
        List<Row> rows = TestFiles.rows(records);
        assertThat(rows)
                .extracting(r -> java.util.Arrays.toString(r.values()))
                .containsExactly("[1, Smith, J, 10.5]", "[2, null, abc]", "[4, d\"q, 7]");
        assertThat(rows)
                .extracting(Row::position)
                .containsExactly(file + "#1", file + "#2", file + "#5");
        assertThat(rows).allMatch(r -> r.schemaVersion() == split.schema().version());
        assertThat(TestFiles.undecodables(records))
                .containsExactly(
                        new Undecodable(
                                "orders",
                                "3,x",
                                "expected 3 fields as in the header but found 2",
                                file + "#3"));
    }

    @Test
    void jsonlValuesNestedAndAKeyAddedMidFile() throws IOException {
        Path file =
                TestFiles.write(
                        dir.resolve("e.jsonl"),
                        "{\"id\":1,\"tags\":[\"a\",\"b\"],\"meta\":{\"k\":{\"z\":null}},\"p\":1.5}\n"
                                + "{\"id\":2,\"big\":123456789012345678901234567890}\n"
                                + "{\"id\":3,\"extra\":\"2024-01-01\",\"none\":null}\n"
                                + "{\"id\":4,\"extra\":\"x\"}\n");
        FileSplit split = TestFiles.split(file, FileFormat.JSONL, "events");
        List<FileRecord> records = TestFiles.readAll(split);
        List<Row> rows = TestFiles.rows(records);
        StreamSchema v1 = split.schema();
        assertThat(v1.columns())
                .extracting(Column::name)
                .containsExactly("id", "tags", "meta", "p", "big", "extra");
        assertThat(v1.columns().get(1).type()).isEqualTo(DataType.JSON);
        assertThat(rows.get(0).values())
                .containsExactly(1L, "[\"a\",\"b\"]", "{\"k\":{\"z\":null}}", 1.5, null, null);
        assertThat(rows.get(1).value(4))
                .isEqualTo(new BigDecimal("123456789012345678901234567890"));
        assertThat(rows.get(2).values()).containsExactly(3L, null, null, null, null, "2024-01-01");
        assertThat(rows).allMatch(r -> r.schemaVersion() == v1.version());
    }

    @Test
    void jsonlKeyOutsideTheSampleMakesANewSchemaVersion() throws IOException {
        Path file =
                TestFiles.write(
                        dir.resolve("e.jsonl"),
                        "{\"id\":1}\n{\"id\":2,\"late\":true}\n{\"id\":3}\n");
        StreamSchema v1 =
                new StreamSchema("events", List.of(Column.of("id", DataType.INT64)), List.of());
        List<FileRecord> records =
                TestFiles.readAll(FileSplit.unread(file.toString(), FileFormat.JSONL, v1));
        StreamSchema v2 = v1.withColumns(List.of(Column.of("late", DataType.BOOLEAN)));
        assertThat(records).extracting(FileRecord::schema).containsExactly(v1, v2, v2);
        assertThat(TestFiles.rows(records))
                .extracting(Row::schemaVersion)
                .containsExactly(v1.version(), v2.version(), v2.version());
        assertThat(TestFiles.rows(records).get(1).values()).containsExactly(2L, true);
        assertThat(TestFiles.rows(records).get(2).values()).containsExactly(3L, null);
    }

    @Test
    void jsonlUndecodableLines() throws IOException {
        byte[] badUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, '"', '}', '\n'};
        Path file = dir.resolve("bad.jsonl");
        Files.write(file, "{\"a\":1}\n{\"a\":\n[1,2]\n\"str\"\n".getBytes(StandardCharsets.UTF_8));
        Files.write(file, badUtf8, java.nio.file.StandardOpenOption.APPEND);
        Files.write(
                file,
                "{\"a\":1} x\n{\"a\":1,\"a\":2}\n  \n{\"a\":5}".getBytes(StandardCharsets.UTF_8),
                java.nio.file.StandardOpenOption.APPEND);
        List<FileRecord> records = TestFiles.readAll(TestFiles.split(file, FileFormat.JSONL, "s"));
        List<String> seen = new ArrayList<>();
        for (Undecodable u : TestFiles.undecodables(records)) {
            seen.add(
                    u.position().substring(u.position().indexOf('#'))
                            + " "
                            + u.payload()
                            + " -> "
                            + u.error());
        }
        assertThat(seen)
                .containsExactly(
                        "#2 {\"a\": -> invalid JSON at column 6: Unexpected end-of-input"
                                + " within/between Object entries",
                        "#3 [1,2] -> expected a JSON object but found an array",
                        "#4 \"str\" -> expected a JSON object but found a string",
                        "#5 {\"a\":\"\uFFFD\"} -> invalid UTF-8 byte sequence",
                        "#6 {\"a\":1} x -> invalid JSON at column 10: Unrecognized token 'x':"
                                + " was expecting (JSON String, Number, Array, Object or token"
                                + " 'null', 'true' or 'false')",
                        "#7 {\"a\":1,\"a\":2} -> invalid JSON at column 11: Duplicate field 'a'");
        assertThat(TestFiles.rows(records))
                .extracting(Row::position)
                .containsExactly(file + "#1", file + "#9");
    }

    @Test
    void resumeFromASplitStateMidFile() throws IOException {
        StringBuilder csv = new StringBuilder("n,text\n");
        StringBuilder jsonl = new StringBuilder();
        for (int i = 1; i <= 50; i++) {
            csv.append(i).append(",\"line ").append(i).append("\nsecond\"\n");
            jsonl.append("{\"n\":").append(i).append("}\n");
            if (i % 10 == 0) {
                csv.append('\n');
                jsonl.append('\n');
            }
        }
        Path csvFile = TestFiles.write(dir.resolve("r.csv"), csv.toString());
        Path jsonlFile = TestFiles.write(dir.resolve("r.jsonl"), jsonl.toString());
        for (FileSplit split :
                List.of(
                        TestFiles.split(csvFile, FileFormat.CSV, "r"),
                        TestFiles.split(jsonlFile, FileFormat.JSONL, "r"))) {
            List<FileRecord> all = TestFiles.readAll(split);
            assertThat(all).hasSize(50);
            FileRecord at = all.get(22); // the checkpoint is taken after the 23rd record
            FileSplit state =
                    new FileSplit(
                            split.path(),
                            split.format(),
                            at.schema(),
                            at.recordsRead(),
                            at.byteOffset());
            FileSplit restored =
                    FileSplitSerializer.INSTANCE.deserialize(
                            1, FileSplitSerializer.INSTANCE.serialize(state));
            List<FileRecord> rest = TestFiles.readAll(restored);
            assertThat(rest)
                    .extracting(FileRecord::record)
                    .containsExactlyElementsOf(
                            all.subList(23, 50).stream().map(FileRecord::record).toList());
            // without a byte offset the reader skips by record count
            FileSplit countOnly =
                    new FileSplit(split.path(), split.format(), at.schema(), at.recordsRead(), -1);
            assertThat(TestFiles.readAll(countOnly))
                    .extracting(FileRecord::record)
                    .containsExactlyElementsOf(
                            all.subList(23, 50).stream().map(FileRecord::record).toList());
        }
    }
}
