package io.skippr.conformance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads rows written as JSON lines (the JSONL file format, standard output) exactly as written:
 * numbers keep every digit, nested JSON keeps its text, and each row keeps the JSON value of each
 * field, so a JSON column (embedded, as the docs say) is compared as the document it is.
 */
final class JsonLines {
    private JsonLines() {}

    private static final ObjectMapper JSON =
            new ObjectMapper()
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** A row read from a JSON line: its values, and each field's JSON value as written. */
    static final class Row extends LinkedHashMap<String, Object> {
        private static final long serialVersionUID = 1L;
        private final Map<String, JsonNode> written = new LinkedHashMap<>();
    }

    /**
     * Every row of a committed JSONL file. Each line must be one JSON object: a line that is not
     * (garbage, a half-written line, a blank line) fails the read, as it would fail a user's
     * reader, instead of being skipped.
     */
    static List<Map<String, Object>> readFile(Path file) throws IOException {
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            JsonNode node;
            try {
                node = JSON.readTree(lines.get(i));
            } catch (IOException e) {
                throw new IOException(
                        file + ":" + (i + 1) + ": a committed JSONL line that is not JSON: " + e,
                        e);
            }
            if (node == null || !node.isObject()) {
                throw new IOException(
                        file
                                + ":"
                                + (i + 1)
                                + ": a committed JSONL line that is not a JSON object");
            }
            rows.add(row(node));
        }
        return rows;
    }

    /**
     * The row of one JSON object (a message's body): anything that is not one JSON object throws,
     * naming {@code where}.
     */
    static Map<String, Object> readObject(String text, String where) throws IOException {
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (IOException e) {
            throw new IOException(where + ": not JSON: " + e, e);
        }
        if (node == null || !node.isObject()) {
            throw new IOException(where + ": not a JSON object: " + text);
        }
        return row(node);
    }

    /**
     * The rows a process printed on its standard output, which it shares with other writers and
     * which a kill can cut mid-line: lines that are not JSON objects are not the sink's and are
     * skipped, as are objects {@code keep} refuses.
     */
    static void readPrinted(Path file, Predicate<JsonNode> keep, List<Map<String, Object>> rows)
            throws IOException {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                continue; // not a row: a half-written last line, or another writer's text
            }
            if (node != null && node.isObject() && keep.test(node)) {
                rows.add(row(node));
            }
        }
    }

    /**
     * The value of a JSON column: for a row read here, the JSON text of the embedded document (so
     * the document {@code "just text"} stays a JSON string, and bare text is not taken for one);
     * for any other row, its value.
     */
    static Object document(Map<String, Object> row, String column) {
        if (row instanceof Row r) {
            JsonNode node = r.written.get(column);
            return node == null || node.isNull() ? null : node.toString();
        }
        return row.get(column);
    }

    private static Row row(JsonNode node) {
        Row row = new Row();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            row.put(field.getKey(), value(field.getValue()));
            row.written.put(field.getKey(), field.getValue());
        }
        return row;
    }

    private static Object value(JsonNode v) {
        if (v.isNull()) {
            return null;
        }
        if (v.isContainerNode()) {
            return v.toString(); // a JSON column, as its text
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().longValueExact();
        }
        if (v.isNumber()) {
            return v.decimalValue();
        }
        if (v.isBoolean()) {
            return v.booleanValue();
        }
        return v.asText();
    }
}
