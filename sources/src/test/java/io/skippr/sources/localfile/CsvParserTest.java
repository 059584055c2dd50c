package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvParserTest {
    @TempDir Path dir;

    /** Each record as its fields, or as "ERROR: message | raw text". */
    private List<Object> parse(byte[] bytes) throws IOException {
        Path file = TestFiles.write(dir.resolve("t.csv"), bytes);
        List<Object> out = new ArrayList<>();
        try (ByteInput in = ByteInput.open(file, 0)) {
            in.skipBom();
            CsvParser p = new CsvParser(in);
            while (p.next()) {
                if (p.blank()) {
                    out.add("BLANK");
                } else if (p.error() != null) {
                    out.add("ERROR: " + p.error() + " | " + p.rawText());
                } else {
                    out.add(new ArrayList<>(p.fields()));
                }
            }
        }
        return out;
    }

    private List<Object> parse(String text) throws IOException {
        return parse(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void rfc4180QuotingEdgeCases() throws IOException {
        String csv =
                "a,b,c\r\n"
                        + "\"x, y\",\"say \"\"hi\"\"\",\"line1\nline2\r\nline3\"\r\n"
                        + ",\"\",plain\n"
                        + "\"\"\"\",a\"b,\"\"\n"
                        + "\n"
                        + "last,row,no-newline";
        assertThat(parse(csv))
                .containsExactly(
                        List.of("a", "b", "c"),
                        List.of("x, y", "say \"hi\"", "line1\nline2\r\nline3"),
                        Arrays.asList(null, "", "plain"),
                        List.of("\"", "a\"b", ""),
                        "BLANK",
                        List.of("last", "row", "no-newline"));
    }

    @Test
    void bomIsSkippedAndUtf8Decoded() throws IOException {
        byte[] body = "name,city\nZoë,Kraków\n".getBytes(StandardCharsets.UTF_8);
        byte[] bytes = new byte[body.length + 3];
        bytes[0] = (byte) 0xEF;
        bytes[1] = (byte) 0xBB;
        bytes[2] = (byte) 0xBF;
        System.arraycopy(body, 0, bytes, 3, body.length);
        assertThat(parse(bytes)).containsExactly(List.of("name", "city"), List.of("Zoë", "Kraków"));
    }

    @Test
    void crAloneEndsARecordAndTrailingCommaIsAnEmptyField() throws IOException {
        assertThat(parse("a,b\rc,\r\n"))
                .containsExactly(List.of("a", "b"), Arrays.asList("c", null));
    }

    @Test
    void undecodableRecordsReportErrorsAndParsingGoesOn() throws IOException {
        byte[] bad = "x,\"caf".getBytes(StandardCharsets.UTF_8);
        byte[] bytes =
                concat(
                        "a,b\n\"q\"z,1\n".getBytes(StandardCharsets.UTF_8),
                        bad,
                        new byte[] {(byte) 0xC3, (byte) 0x28},
                        "\"\nok,2\n\"open,3\n".getBytes(StandardCharsets.UTF_8));
        assertThat(parse(bytes))
                .containsExactly(
                        List.of("a", "b"),
                        "ERROR: unexpected character after the closing quote of field 1 | \"q\"z,1",
                        "ERROR: invalid UTF-8 byte sequence | x,\"caf\uFFFD(\"",
                        List.of("ok", "2"),
                        "ERROR: unterminated quoted field | \"open,3\n");
    }

    @Test
    void offsetsPointAfterEachRecord() throws IOException {
        Path file = TestFiles.write(dir.resolve("o.csv"), "a\r\n\"x\ny\"\r\nz");
        try (ByteInput in = ByteInput.open(file, 0)) {
            CsvParser p = new CsvParser(in);
            List<Long> offsets = new ArrayList<>();
            while (p.next()) {
                offsets.add(p.offset());
            }
            assertThat(offsets).containsExactly(3L, 10L, 11L);
        }
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, at, p.length);
            at += p.length;
        }
        return out;
    }
}
