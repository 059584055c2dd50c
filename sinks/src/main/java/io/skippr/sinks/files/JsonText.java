package io.skippr.sinks.files;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

/**
 * Renders rows and values as JSON text: numbers as numbers (NaN and infinities as strings, since
 * JSON has none), JSON columns embedded as JSON, bytes as base64, times as ISO-8601.
 */
public final class JsonText {
    public static final String ID = "_skippr_id";
    public static final String SYNCED_AT = "_skippr_synced_at";

    private JsonText() {}

    /** One row as a JSON object with the metadata columns; {@code stream} adds {@code _stream}. */
    public static void writeRow(Appendable out, StreamSchema schema, Row row, boolean stream)
            throws IOException {
        out.append('{');
        boolean first = true;
        if (stream) {
            out.append("\"_stream\":");
            writeString(out, row.stream());
            first = false;
        }
        for (int i = 0; i < schema.size(); i++) {
            Column column = schema.columns().get(i);
            if (!first) {
                out.append(',');
            }
            first = false;
            writeString(out, column.name());
            out.append(':');
            writeValue(out, column.type(), i < row.values().length ? row.value(i) : null);
        }
        out.append(first ? "" : ",").append('"').append(ID).append("\":");
        writeString(out, row.id());
        out.append(",\"").append(SYNCED_AT).append("\":");
        writeString(out, syncedAt(row).toString());
        out.append('}');
    }

    public static Instant syncedAt(Row row) {
        return Instant.EPOCH.plus(row.syncedAtMicros(), ChronoUnit.MICROS);
    }

    public static void writeValue(Appendable out, DataType type, Object value) throws IOException {
        if (value == null) {
            out.append("null");
        } else if (type.kind() == DataType.Kind.JSON && value instanceof String json) {
            writeOnOneLine(out, json);
        } else if (value instanceof Boolean
                || value instanceof Short
                || value instanceof Integer
                || value instanceof Long) {
            out.append(value.toString());
        } else if (value instanceof Double d) {
            writeFloating(out, d);
        } else if (value instanceof Float f) {
            writeFloating(out, f.doubleValue());
        } else if (value instanceof BigDecimal d) {
            out.append(d.toPlainString());
        } else if (value instanceof byte[] b) {
            writeString(out, Base64.getEncoder().encodeToString(b));
        } else {
            writeString(out, value.toString());
        }
    }

    /**
     * A JSON text as it is, but for its line breaks, which become spaces: valid JSON has them only
     * between tokens (a string holds them escaped), where they are whitespace, and a raw one would
     * split the row's line in two (PostgreSQL's {@code json} keeps the text it was given).
     */
    private static void writeOnOneLine(Appendable out, String json) throws IOException {
        if (json.indexOf('\n') < 0 && json.indexOf('\r') < 0) {
            out.append(json);
            return;
        }
        out.append(json.replace('\n', ' ').replace('\r', ' '));
    }

    private static void writeFloating(Appendable out, double d) throws IOException {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            writeString(out, Double.toString(d));
        } else {
            out.append(Double.toString(d));
        }
    }

    public static void writeString(Appendable out, String s) throws IOException {
        if (s == null) {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
