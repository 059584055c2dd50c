package io.skippr.sources.postgres.cdc;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.HexFormat;
import java.util.UUID;

/**
 * PostgreSQL's text output of a value ({@code typoutput}, DateStyle ISO, bytea_output hex, as a
 * replication connection of pgjdbc sets them) read as the Java class of its Skippr type: the values
 * the snapshot's binary read ({@code BinaryValues}) gives for the same column.
 */
final class PgText {
    private static final DateTimeFormatter TIMESTAMP =
            new DateTimeFormatterBuilder()
                    .append(DateTimeFormatter.ISO_LOCAL_DATE)
                    .appendLiteral(' ')
                    .appendValue(ChronoField.HOUR_OF_DAY, 2)
                    .appendLiteral(':')
                    .appendValue(ChronoField.MINUTE_OF_HOUR, 2)
                    .appendLiteral(':')
                    .appendValue(ChronoField.SECOND_OF_MINUTE, 2)
                    .optionalStart()
                    .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
                    .optionalEnd()
                    .toFormatter();

    /**
     * {@link #TIMESTAMP} then PostgreSQL's offset: {@code +00}, {@code +05:30}, {@code -03:12:45}.
     */
    private static final DateTimeFormatter TIMESTAMPTZ =
            new DateTimeFormatterBuilder()
                    .append(TIMESTAMP)
                    .parseLenient()
                    .appendOffset("+HH:MM:ss", "+00")
                    .toFormatter();

    private PgText() {}

    /**
     * The value of {@code text} as the class of {@code kind}.
     *
     * @throws Unrepresentable for numeric NaN and infinities, infinite dates and timestamps
     * @throws IllegalArgumentException for text that is not PostgreSQL's output of such a value
     */
    static Object parse(DataType.Kind kind, String text) throws Unrepresentable {
        return switch (kind) {
            case BOOLEAN -> bool(text);
            case INT16 -> Short.parseShort(text);
            case INT32 -> Integer.parseInt(text);
            case INT64 -> Long.parseLong(text);
            case FLOAT32 -> Float.parseFloat(text);
            case FLOAT64 -> Double.parseDouble(text);
            case DECIMAL -> numeric(text);
            case STRING, JSON -> text;
            case UUID -> UUID.fromString(text);
            case BYTES -> bytea(text);
            case DATE -> date(text);
            case TIME -> LocalTime.parse(text);
            case TIMESTAMP -> timestamp(text);
            case TIMESTAMP_TZ -> timestamptz(text);
        };
    }

    private static Boolean bool(String text) {
        return switch (text) {
            case "t" -> Boolean.TRUE;
            case "f" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException("not a boolean: " + text);
        };
    }

    private static BigDecimal numeric(String text) throws Unrepresentable {
        if (text.equals("NaN") || text.endsWith("Infinity")) {
            throw new Unrepresentable("numeric " + text + " has no decimal value");
        }
        return new BigDecimal(text);
    }

    private static byte[] bytea(String text) {
        if (!text.startsWith("\\x")) {
            throw new IllegalArgumentException("bytea not in hex output: " + text);
        }
        return HexFormat.of().parseHex(text, 2, text.length());
    }

    private static LocalDate date(String text) throws Unrepresentable {
        finite(text, "date");
        if (text.endsWith(" BC")) { // year 1 BC is ISO year 0
            LocalDate date = LocalDate.parse(text.substring(0, text.length() - 3));
            return date.withYear(1 - date.getYear());
        }
        return LocalDate.parse(text);
    }

    private static LocalDateTime timestamp(String text) throws Unrepresentable {
        finite(text, "timestamp");
        if (text.endsWith(" BC")) {
            LocalDateTime t = LocalDateTime.parse(text.substring(0, text.length() - 3), TIMESTAMP);
            return t.withYear(1 - t.getYear());
        }
        return LocalDateTime.parse(text, TIMESTAMP);
    }

    private static Instant timestamptz(String text) throws Unrepresentable {
        finite(text, "timestamptz");
        if (text.endsWith(" BC")) {
            OffsetDateTime t =
                    OffsetDateTime.parse(text.substring(0, text.length() - 3), TIMESTAMPTZ);
            return t.withYear(1 - t.getYear()).toInstant();
        }
        return OffsetDateTime.parse(text, TIMESTAMPTZ).toInstant();
    }

    private static void finite(String text, String type) throws Unrepresentable {
        if (text.equals("infinity") || text.equals("-infinity")) {
            throw new Unrepresentable(type + " " + text + " has no Skippr value");
        }
    }

    /** A value PostgreSQL holds that has no value of the column's Skippr type. */
    static final class Unrepresentable extends Exception {
        private static final long serialVersionUID = 1L;

        Unrepresentable(String message) {
            super(message);
        }
    }
}
