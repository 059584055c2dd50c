package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import io.skippr.core.record.DataType;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The Stdout sink, read from what it printed: in-process runs print to this JVM's standard output,
 * which the fixture captures while they run; {@code skipprd} processes print to their own, which
 * the kit hands over. Both go to {@code stdout.jsonl}, where only JSON objects with a {@code
 * _stream} count (anything else on standard output is not the sink's).
 */
final class StdoutFixture implements SinkFixture {
    @Override
    public String kind() {
        return "Stdout";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.AT_LEAST_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    Stdout: {}\n";
    }

    private static Path printed(Path dir) {
        return dir.resolve("stdout.jsonl");
    }

    @Override
    public AutoCloseable capture(Path dir) throws IOException {
        PrintStream original = System.out;
        PrintStream file =
                new PrintStream(
                        new FileOutputStream(printed(dir).toFile(), true),
                        true,
                        StandardCharsets.UTF_8);
        System.setOut(file);
        return () -> {
            System.setOut(original);
            file.close();
        };
    }

    @Override
    public void collect(Path dir, Path processOutput) throws IOException {
        Files.write(
                printed(dir),
                Files.readAllBytes(processOutput),
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (!Files.exists(printed(dir))) {
            return rows;
        }
        JsonLines.readPrinted(
                printed(dir), node -> stream.equals(node.path("_stream").asText()), rows);
        return rows;
    }

    /** JSON has no bytes: they print as base64 (docs/connectors/stdout.md). */
    @Override
    public String landed(DataType.Kind kind, String canonical) {
        if (kind == DataType.Kind.BYTES) {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(canonical));
        }
        return canonical;
    }
}
