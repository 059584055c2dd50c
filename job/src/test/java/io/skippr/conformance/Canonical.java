package io.skippr.conformance;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.skippr.core.record.DataType.Kind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HexFormat;
import java.util.Locale;

/**
 * One text form per value of a kind, whatever Java class a destination's reader returns: the kit
 * compares these, so that {@code 1.50} and {@code 1.5}, or a SQL timestamp and an ISO string, are
 * the same value.
 */
final class Canonical {
    private Canonical() {}

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private static final ObjectMapper READ =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Space or T between date and time, optional fraction and offset. */
    private static final DateTimeFormatter SQL_TIMESTAMP =
            new DateTimeFormatterBuilder()
                    .append(DateTimeFormatter.ISO_LOCAL_DATE)
                    .optionalStart()
                    .appendLiteral(' ')
                    .optionalEnd()
                    .optionalStart()
                    .appendLiteral('T')
                    .optionalEnd()
                    .append(DateTimeFormatter.ISO_LOCAL_TIME)
                    .optionalStart()
                    .appendOffset("+HH:mm", "Z")
                    .optionalEnd()
                    .optionalStart()
                    .appendOffset("+HH", "Z")
                    .optionalEnd()
                    .parseDefaulting(ChronoField.OFFSET_SECONDS, 0)
                    .toFormatter(Locale.ROOT);

    static String of(Kind kind, Object value) {
        if (value == null) {
            return null;
        }
        try {
            return switch (kind) {
                case INT16, INT32, INT64 -> new BigInteger(text(value)).toString();
                case DECIMAL -> decimal(value);
                case FLOAT32 ->
                        Float.toString(
                                value instanceof Number n
                                        ? n.floatValue()
                                        : (float) floating(text(value)));
                case FLOAT64 ->
                        Double.toString(
                                value instanceof Number n
                                        ? n.doubleValue()
                                        : floating(text(value)));
                case BOOLEAN -> bool(value);
                case STRING -> text(value);
                case JSON -> json(text(value));
                case UUID -> text(value).toLowerCase(Locale.ROOT);
                case BYTES -> bytes(value);
                case DATE ->
                        value instanceof java.sql.Date d
                                ? d.toLocalDate().toString()
                                : LocalDate.parse(text(value)).toString();
                case TIME ->
                        value instanceof LocalTime t
                                ? t.toString()
                                : LocalTime.parse(text(value)).toString();
                case TIMESTAMP -> timestamp(value).toString();
                case TIMESTAMP_TZ -> instant(value).toString();
            };
        } catch (Exception e) {
            return "<unreadable " + kind + ": " + value + " (" + value.getClass().getName() + ")>";
        }
    }

    /** Java's float syntax, and the {@code nan} / {@code inf} of SQL engines. */
    private static double floating(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "nan" -> Double.NaN;
            case "inf", "+inf", "infinity" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    private static String text(Object value) {
        return String.valueOf(value);
    }

    /**
     * JSON text with sorted keys and no spaces. Text that does not parse as one JSON document (bare
     * {@code just text}, or a document followed by more) is not JSON: it fails, so that a JSON
     * column landing as invalid text cannot pass for the JSON string {@code "just text"}.
     */
    private static String json(String text) throws java.io.IOException {
        return JSON.writeValueAsString(READ.readValue(text, Object.class));
    }

    private static String bytes(Object value) throws java.sql.SQLException {
        if (value instanceof byte[] b) {
            return HexFormat.of().formatHex(b);
        }
        if (value instanceof java.sql.Blob blob) {
            return HexFormat.of().formatHex(blob.getBytes(1, (int) blob.length()));
        }
        return text(value).replaceFirst("^\\\\x", "");
    }

    private static String decimal(Object value) {
        BigDecimal d = value instanceof BigDecimal b ? b : new BigDecimal(text(value));
        return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
    }

    private static String bool(Object value) {
        return switch (text(value).toLowerCase(Locale.ROOT)) {
            case "true", "t", "1" -> "true";
            case "false", "f", "0" -> "false";
            default -> throw new IllegalArgumentException("not a boolean");
        };
    }

    private static LocalDateTime timestamp(Object value) {
        if (value instanceof LocalDateTime t) {
            return t;
        }
        if (value instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        return LocalDateTime.parse(text(value), SQL_TIMESTAMP);
    }

    private static Instant instant(Object value) {
        if (value instanceof Instant i) {
            return i;
        }
        if (value instanceof OffsetDateTime t) {
            return t.toInstant();
        }
        if (value instanceof ZonedDateTime t) {
            return t.toInstant();
        }
        if (value instanceof java.sql.Timestamp t) {
            return t.toInstant();
        }
        return OffsetDateTime.parse(text(value), SQL_TIMESTAMP).toInstant();
    }
}
