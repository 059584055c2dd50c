package io.skippr.job;

import io.skippr.core.record.DataType;
import io.skippr.sinks.files.JsonText;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.UUID;

/**
 * Brings a source value to its column's type without losing information: integers that overflow,
 * decimals that need rounding, and text that does not parse are refused, never guessed.
 */
final class Coercion {
    /** 10^0 to 10^18. */
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    private Coercion() {}

    static Object coerce(Object value, DataType type) throws CoercionException {
        if (value == null
                || type.javaClass().isInstance(value)
                        && (type.kind() != DataType.Kind.DECIMAL
                                || fits((BigDecimal) value, type))) {
            return value;
        }
        try {
            return switch (type.kind()) {
                case BOOLEAN -> bool(value);
                case INT16 -> (short) integral(value, Short.MIN_VALUE, Short.MAX_VALUE);
                case INT32 -> (int) integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                case INT64 -> integral(value, Long.MIN_VALUE, Long.MAX_VALUE);
                case FLOAT32 -> (float) floating(value);
                case FLOAT64 -> floating(value);
                case DECIMAL -> decimal(value, type);
                case STRING -> text(value);
                case JSON -> json(value);
                case UUID -> UUID.fromString(text(value).trim());
                case BYTES -> refuse(value, type);
                case DATE -> LocalDate.parse(text(value).trim());
                case TIME -> LocalTime.parse(text(value).trim());
                case TIMESTAMP -> LocalDateTime.parse(text(value).trim().replace(' ', 'T'));
                case TIMESTAMP_TZ -> instant(text(value).trim());
            };
        } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
            return refuse(value, type);
        } catch (IllegalArgumentException e) {
            return refuse(value, type);
        }
    }

    private static Object refuse(Object value, DataType type) throws CoercionException {
        String shown = text(value);
        if (shown.length() > 80) {
            shown = shown.substring(0, 77) + "...";
        }
        throw new CoercionException("expected " + type + ", found '" + shown + "'");
    }

    /**
     * Whether {@code d} has at most the type's fraction digits (its scale) and integer digits (its
     * precision less its scale). The digit count is {@code d.precision()}, which counts digits by
     * arithmetic on every call: a value whose unscaled number fits a long is compared with a power
     * of ten instead.
     */
    static boolean fits(BigDecimal d, DataType type) {
        if (type.precision() == 0) {
            return true;
        }
        if (d.scale() > type.scale()) {
            return false;
        }
        int digits = type.precision() - type.scale() + d.scale(); // at most, in the unscaled value
        if (digits <= 0) {
            return false; // every value has a digit, even zero
        }
        BigInteger unscaled = d.unscaledValue();
        if (unscaled.bitLength() > 62) {
            return d.precision() <= digits;
        }
        return digits >= POW10.length || Math.abs(unscaled.longValue()) < POW10[digits];
    }

    private static Boolean bool(Object value) throws CoercionException {
        String s = text(value).trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "true", "t", "yes", "y", "1" -> true;
            case "false", "f", "no", "n", "0" -> false;
            default -> (Boolean) refuse(value, DataType.BOOLEAN);
        };
    }

    private static long integral(Object value, long min, long max) {
        BigDecimal d =
                value instanceof Number n
                        ? new BigDecimal(n.toString())
                        : new BigDecimal(text(value).trim());
        BigInteger exact = d.toBigIntegerExact();
        if (exact.compareTo(BigInteger.valueOf(min)) < 0
                || exact.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new ArithmeticException("out of range");
        }
        return exact.longValue();
    }

    private static double floating(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        return Double.parseDouble(text(value).trim());
    }

    private static BigDecimal decimal(Object value, DataType type) throws CoercionException {
        BigDecimal d = value instanceof BigDecimal b ? b : new BigDecimal(text(value).trim());
        if (type.precision() > 0) {
            if (d.scale() < type.scale()) {
                d = d.setScale(type.scale());
            }
            if (!fits(d, type)) {
                return (BigDecimal) refuse(value, type);
            }
        }
        return d;
    }

    private static Instant instant(String s) {
        try {
            return OffsetDateTime.parse(s.replace(' ', 'T')).toInstant();
        } catch (DateTimeParseException e) {
            return Instant.parse(s);
        }
    }

    private static String json(Object value) throws CoercionException {
        StringBuilder out = new StringBuilder();
        try {
            JsonText.writeValue(out, DataType.STRING, value);
        } catch (java.io.IOException e) {
            throw new CoercionException(e.getMessage());
        }
        return out.toString();
    }

    static String text(Object value) {
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] b) {
            return java.util.Base64.getEncoder().encodeToString(b);
        }
        return String.valueOf(value);
    }
}
