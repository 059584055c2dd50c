package io.skippr.conformance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Reads rows written as JSON lines (the JSONL file format, standard output) exactly as written:
 * numbers keep every digit, nested JSON keeps its text. Lines that are not JSON objects, or that
 * {@code keep} refuses, are skipped.
 */
final class JsonLines {
    private JsonLines() {}

    private static final ObjectMapper JSON =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    static void read(Path file, Predicate<JsonNode> keep, List<Map<String, Object>> rows)
            throws IOException {
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            JsonNode node;
            try {
                node = JSON.readTree(line);
            } catch (IOException e) {
                continue; // not a row: a half-written last line, or another writer's text
            }
            if (node == null || !node.isObject() || !keep.test(node)) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                row.put(field.getKey(), value(field.getValue()));
            }
            rows.add(row);
        }
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
