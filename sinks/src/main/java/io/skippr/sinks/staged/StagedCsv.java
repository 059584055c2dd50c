package io.skippr.sinks.staged;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;

/**
 * A staged row as one CSV record, as a warehouse's COPY reads it: the stream's columns, then {@code
 * _skippr_id}, {@code _skippr_synced_at}, {@code _skippr_deleted} and {@code _skippr_seq}. A null
 * is an unquoted {@link #NULL}; every other text value is quoted (so a text that reads {@code \N}
 * stays text); bytes are hexadecimal; times are {@code HH:MM:SS.ffffff}, timestamps {@code
 * YYYY-MM-DD HH:MM:SS.ffffff} (with zone: in UTC, {@code +00}). Records end in a newline; a quoted
 * value may hold newlines.
 */
public final class StagedCsv {
    /** The null marker, as the COPY statement's {@code NULL AS} names it. */
    public static final String NULL = "\\N";

    private static final HexFormat HEX = HexFormat.of();

    private final List<Column> columns;

    public StagedCsv(StreamSchema schema) {
        this.columns = schema.columns();
    }

    /** Appends {@code row}'s record, with its position {@code seq} in the staged set. */
    public void append(StringBuilder out, Row row, long seq) {
        Object[] values = row.values();
        for (int i = 0; i < columns.size(); i++) {
            Object value = i < values.length ? values[i] : null;
            value(out, columns.get(i).type(), value);
            out.append(',');
        }
        if (row.id() == null) {
            out.append(NULL);
        } else {
            quoted(out, row.id());
        }
        out.append(',');
        timestamp(out, micros(row.syncedAtMicros()), true);
        out.append(',').append(row.op() == Operation.DELETE ? "true" : "false");
        out.append(',').append(seq).append('\n');
    }

    private static Instant micros(long micros) {
        return Instant.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
    }

    static void value(StringBuilder out, DataType type, Object value) {
        if (value == null) {
            out.append(NULL);
            return;
        }
        switch (type.kind()) {
            case BOOLEAN -> out.append((Boolean) value ? "true" : "false");
            case INT16, INT32, INT64, FLOAT32, FLOAT64 -> out.append(value);
            case DECIMAL -> out.append(((BigDecimal) value).toPlainString());
            case STRING, JSON -> quoted(out, (String) value);
            case UUID -> out.append(value);
            case BYTES -> out.append('"').append(HEX.formatHex((byte[]) value)).append('"');
            case DATE -> date(out, (LocalDate) value);
            case TIME -> time(out, (LocalTime) value);
            case TIMESTAMP -> timestamp(out, (LocalDateTime) value);
            case TIMESTAMP_TZ -> timestamp(out, (Instant) value, true);
        }
    }

    private static void quoted(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '"') {
                out.append('"');
            }
            out.append(ch);
        }
        out.append('"');
    }

    private static void date(StringBuilder out, LocalDate d) {
        pad(out, d.getYear(), 4).append('-');
        pad(out, d.getMonthValue(), 2).append('-');
        pad(out, d.getDayOfMonth(), 2);
    }

    private static void time(StringBuilder out, LocalTime t) {
        pad(out, t.getHour(), 2).append(':');
        pad(out, t.getMinute(), 2).append(':');
        pad(out, t.getSecond(), 2).append('.');
        pad(out, t.getNano() / 1000, 6);
    }

    private static void timestamp(StringBuilder out, LocalDateTime t) {
        date(out, t.toLocalDate());
        out.append(' ');
        time(out, t.toLocalTime());
    }

    private static void timestamp(StringBuilder out, Instant t, boolean zone) {
        timestamp(out, LocalDateTime.ofInstant(t, ZoneOffset.UTC));
        if (zone) {
            out.append("+00");
        }
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits);
    }
}
