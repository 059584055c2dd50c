package io.skippr.core.record;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Cursor values as text, for state and manifests, and their order. The text of a value parses back
 * in PostgreSQL as a literal of the column's type ({@code 2024-05-01T10:00:00Z} for timestamptz).
 */
public final class CursorValues {
    private CursorValues() {}

    public static String toText(Object value) {
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return String.valueOf(value);
    }

    /** Parses {@code text} as a value of {@code type}, the inverse of {@link #toText}. */
    public static Comparable<?> parse(DataType type, String text) {
        return switch (type.kind()) {
            case INT16 -> Short.parseShort(text);
            case INT32 -> Integer.parseInt(text);
            case INT64 -> Long.parseLong(text);
            case FLOAT32 -> Float.parseFloat(text);
            case FLOAT64 -> Double.parseDouble(text);
            case DECIMAL -> new BigDecimal(text);
            case DATE -> LocalDate.parse(text);
            case TIME -> LocalTime.parse(text);
            case TIMESTAMP -> LocalDateTime.parse(text);
            case TIMESTAMP_TZ -> Instant.parse(text);
            default -> text;
        };
    }

    /** The larger of two cursor values of one column; null is smaller than anything. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object max(Object a, Object b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return ((Comparable) a).compareTo(b) >= 0 ? a : b;
    }

    /** The smaller of two cursor values of one column; null is larger than anything. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Object min(Object a, Object b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        return ((Comparable) a).compareTo(b) <= 0 ? a : b;
    }
}
