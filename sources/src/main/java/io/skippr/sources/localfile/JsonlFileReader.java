package io.skippr.sources.localfile;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads a JSON Lines file: one JSON object per line. Values are emitted as Jackson reads them:
 * integers as Long (BigDecimal beyond INT64), other numbers as Double, booleans, strings, and
 * nested objects and arrays as their JSON text. A key the schema lacks (with a non-null value)
 * makes a new schema version with that column, typed from the value, for this row and the rest of
 * the file. Blank lines are skipped (and counted); a line that is not a JSON object is an
 * Undecodable.
 */
final class JsonlFileReader extends FormatReader {
    static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                    .build();

    private final ByteInput in;
    private final ByteBuf line = new ByteBuf();
    private boolean tooLong;

    JsonlFileReader(FileSplit split) throws IOException {
        super(split);
        if (split.recordsRead() > 0 && split.byteOffset() > 0) {
            in = ByteInput.open(file, split.byteOffset(), split.endOffset());
            recordsRead = split.recordsRead();
        } else {
            in = ByteInput.open(file, 0, split.endOffset());
            try {
                in.skipBom();
                while (recordsRead < split.recordsRead() && readLine()) {
                    recordsRead++;
                }
            } catch (IOException | RuntimeException e) {
                in.close();
                throw e;
            }
        }
    }

    /** Reads the next line without its line break into {@link #line}; false at the end. */
    private boolean readLine() throws IOException {
        line.reset();
        tooLong = false;
        int b = in.read();
        if (b == -1) {
            return false;
        }
        while (b != -1 && b != '\n') {
            if (line.length() < CsvParser.MAX_RECORD_BYTES) {
                line.append(b);
            } else {
                tooLong = true;
            }
            b = in.read();
        }
        if (!tooLong && line.length() > 0 && line.byteAt(line.length() - 1) == '\r') {
            line.truncate(line.length() - 1);
        }
        return true;
    }

    private boolean blank() {
        for (int i = 0; i < line.length(); i++) {
            int b = line.byteAt(i);
            if (b != ' ' && b != '\t' && b != '\r') {
                return false;
            }
        }
        return true;
    }

    @Override
    FileRecord next() throws IOException {
        while (readLine()) {
            recordsRead++;
            if (!tooLong && blank()) {
                continue;
            }
            long offset = in.offset();
            if (tooLong) {
                return undecodable(
                        line.decodeLenient(),
                        "line is longer than " + CsvParser.MAX_RECORD_BYTES + " bytes (cut)",
                        offset);
            }
            String text;
            try {
                text = line.decodeStrict(0, line.length());
            } catch (CharacterCodingException e) {
                return undecodable(line.decodeLenient(), CsvParser.INVALID_UTF8, offset);
            }
            JsonNode node;
            try {
                node = MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                return undecodable(text, jsonError(e), offset);
            }
            if (!node.isObject()) {
                return undecodable(
                        text, "expected a JSON object but found " + describe(node), offset);
            }
            return row(values(node), offset);
        }
        return null;
    }

    private Object[] values(JsonNode object) {
        List<Column> added = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (!index.containsKey(field.getKey()) && !field.getValue().isNull()) {
                if (added == null) {
                    added = new ArrayList<>();
                }
                DataType type = DataType.of(TypeInference.ofJson(field.getValue()));
                added.add(Column.of(field.getKey(), type));
            }
        }
        if (added != null) {
            evolve(added);
        }
        Object[] values = new Object[schema.size()];
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            Integer i = index.get(field.getKey());
            if (i != null) {
                values[i] = toJava(field.getValue());
            }
        }
        return values;
    }

    /** A JSON value as the Java value Skippr emits for it. */
    static Object toJava(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isInt() || node.isLong() || node.isShort()) {
            return node.longValue();
        }
        if (node.isBigInteger()) {
            return new BigDecimal(node.bigIntegerValue());
        }
        if (node.isBigDecimal()) {
            return node.decimalValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isContainerNode()) {
            return node.toString();
        }
        return node.asText();
    }

    /** Jackson's message without its source description: the line is the payload. */
    static String jsonError(JsonProcessingException e) {
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        message =
                message.replaceAll(
                        "\\[Source: [^\\]]*?; line: \\d+, column: (\\d+)\\]", "column $1");
        return e.getLocation() == null || e.getLocation().getColumnNr() < 1
                ? "invalid JSON: " + message
                : "invalid JSON at column " + e.getLocation().getColumnNr() + ": " + message;
    }

    private static String describe(JsonNode node) {
        if (node.isArray()) {
            return "an array";
        }
        if (node.isTextual()) {
            return "a string";
        }
        if (node.isNumber()) {
            return "a number";
        }
        if (node.isBoolean()) {
            return "a boolean";
        }
        if (node.isNull()) {
            return "null";
        }
        return node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    long offsetAtEnd() {
        return in.offset();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
