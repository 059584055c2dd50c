package io.skippr.sinks.clickhouse;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * Rows in ClickHouse's TabSeparated format, built up in memory for one INSERT: null is {@code \N},
 * backslash, tab, line breaks, NUL, backspace and form feed are backslash-escaped, bytes are
 * written as they are (a ClickHouse String holds any bytes). Timestamps are UTC {@code YYYY-MM-DD
 * hh:mm:ss} (the server's DateTime has whole seconds); {@link ClickHouseLimits} keeps out values
 * the server's types cannot hold.
 */
final class TabSeparatedRows {
    private static final byte[] NULL = {'\\', 'N'};

    private byte[] buf = new byte[64 * 1024];
    private int size;
    private int rows;

    /** Appends {@code row} and its metadata columns. */
    void append(StreamSchema schema, Row row) {
        Object[] values = row.values();
        for (int i = 0; i < schema.size(); i++) {
            value(i < values.length ? values[i] : null, schema.columns().get(i).type());
            put((byte) '\t');
        }
        escaped(row.id().getBytes(StandardCharsets.UTF_8));
        put((byte) '\t');
        long micros = row.syncedAtMicros();
        dateTime(LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), 0, ZoneOffset.UTC));
        put((byte) '\t');
        ascii(Long.toString(Math.max(micros, 0)));
        put((byte) '\n');
        rows++;
    }

    private void value(Object value, DataType type) {
        if (value == null) {
            put(NULL);
        } else if (value instanceof Boolean b) {
            put((byte) (b ? '1' : '0'));
        } else if (value instanceof Short || value instanceof Integer || value instanceof Long) {
            ascii(value.toString());
        } else if (value instanceof Double d) {
            floating(d, Double.toString(d));
        } else if (value instanceof Float f) {
            floating(f, Float.toString(f));
        } else if (value instanceof BigDecimal d) {
            // A Decimal(p, s) column refuses more than s decimals, even zeros.
            boolean tooLong = ClickHouseTypes.storesDecimal(type) && d.scale() > type.scale();
            ascii((tooLong ? d.stripTrailingZeros() : d).toPlainString());
        } else if (value instanceof byte[] bytes) {
            escaped(bytes);
        } else if (value instanceof LocalDate d) {
            ascii(d.toString());
        } else if (value instanceof LocalTime t) {
            ascii(time(t));
        } else if (value instanceof LocalDateTime t) {
            dateTime(t);
        } else if (value instanceof Instant t) {
            dateTime(LocalDateTime.ofInstant(t, ZoneOffset.UTC));
        } else {
            escaped(value.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private void floating(double d, String text) {
        if (Double.isNaN(d)) {
            ascii("nan");
        } else if (Double.isInfinite(d)) {
            ascii(d > 0 ? "inf" : "-inf");
        } else {
            ascii(text);
        }
    }

    /** {@code hh:mm:ss}, then {@code .ffffff} when there is a fraction: sorts as text. */
    static String time(LocalTime t) {
        String hms = String.format("%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        int micros = t.getNano() / 1000;
        return micros == 0 ? hms : hms + String.format(".%06d", micros);
    }

    private void dateTime(LocalDateTime t) {
        digits(t.getYear(), 4);
        put((byte) '-');
        digits(t.getMonthValue(), 2);
        put((byte) '-');
        digits(t.getDayOfMonth(), 2);
        put((byte) ' ');
        digits(t.getHour(), 2);
        put((byte) ':');
        digits(t.getMinute(), 2);
        put((byte) ':');
        digits(t.getSecond(), 2);
    }

    private void digits(int value, int width) {
        ensure(width);
        for (int i = width - 1; i >= 0; i--) {
            buf[size + i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        size += width;
    }

    // UTF-8 never uses bytes below 0x80 inside a multi-byte character, so escaping byte by
    // byte is safe for text as well as for raw bytes.
    private void escaped(byte[] bytes) {
        ensure(bytes.length * 2);
        for (byte b : bytes) {
            switch (b) {
                case '\\' -> pair('\\');
                case '\t' -> pair('t');
                case '\n' -> pair('n');
                case '\r' -> pair('r');
                case 0 -> pair('0');
                case '\b' -> pair('b');
                case '\f' -> pair('f');
                default -> buf[size++] = b;
            }
        }
    }

    private void pair(char c) {
        buf[size++] = '\\';
        buf[size++] = (byte) c;
    }

    private void ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[size++] = (byte) s.charAt(i);
        }
    }

    private void put(byte b) {
        ensure(1);
        buf[size++] = b;
    }

    private void put(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, size, bytes.length);
        size += bytes.length;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    byte[] bytes() {
        return buf;
    }

    int size() {
        return size;
    }

    int rows() {
        return rows;
    }

    /** Empties the buffer, keeping a moderate amount of memory for the next batch. */
    void clear() {
        size = 0;
        rows = 0;
        if (buf.length > 4 * 1024 * 1024) {
            buf = new byte[64 * 1024];
        }
    }
}
