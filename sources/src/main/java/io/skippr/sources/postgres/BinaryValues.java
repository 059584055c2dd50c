package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.UUID;

/**
 * PostgreSQL's binary forms ({@code typsend}) of the types {@link BinaryColumns} sends in binary,
 * decoded to the Java classes of {@link DataType.Kind}: exactly the values the text protocol gave
 * (pgjdbc parsing PostgreSQL's text), which {@code BinaryReadTest} checks type by type.
 */
final class BinaryValues {
    /** PostgreSQL's epoch, 2000-01-01, in days and seconds from 1970-01-01. */
    private static final long PG_EPOCH_DAYS = 10_957;

    private static final long PG_EPOCH_SECONDS = PG_EPOCH_DAYS * 86_400;
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private static final int NUMERIC_NEG = 0x4000;
    private static final int NUMERIC_NAN = 0xC000;
    private static final int NUMERIC_PINF = 0xD000;
    private static final int NUMERIC_NINF = 0xF000;

    private BinaryValues() {}

    /**
     * The value of kind {@code kind} in {@code len} bytes of {@code b} from {@code off}.
     *
     * @param jsonb true for a jsonb column, whose text follows a version byte
     * @throws PgTypes.Unrepresentable for numeric NaN and infinities, and infinite dates and
     *     timestamps, with the text path's messages
     */
    static Object decode(byte[] b, int off, int len, DataType.Kind kind, boolean jsonb)
            throws PgTypes.Unrepresentable {
        return switch (kind) {
            case BOOLEAN -> b[off] != 0;
            case INT16 -> (short) int16(b, off);
            case INT32 -> int32(b, off);
            case INT64 -> int64(b, off);
            case FLOAT32 -> Float.intBitsToFloat(int32(b, off));
            case FLOAT64 -> Double.longBitsToDouble(int64(b, off));
            case DECIMAL -> numeric(b, off);
            case STRING -> text(b, off, len);
            case JSON -> jsonb ? text(b, off + 1, len - 1) : text(b, off, len);
            case UUID -> new UUID(int64(b, off), int64(b, off + 8));
            case BYTES -> Arrays.copyOfRange(b, off, off + len);
            case DATE -> date(int32(b, off));
            case TIME -> time(int64(b, off));
            case TIMESTAMP -> timestamp(int64(b, off));
            case TIMESTAMP_TZ -> timestamptz(int64(b, off));
        };
    }

    static String text(byte[] b, int off, int len) {
        return new String(b, off, len, StandardCharsets.UTF_8);
    }

    static int int16(byte[] b, int off) {
        return (short) (((b[off] & 0xff) << 8) | (b[off + 1] & 0xff));
    }

    static int int32(byte[] b, int off) {
        return ((b[off] & 0xff) << 24)
                | ((b[off + 1] & 0xff) << 16)
                | ((b[off + 2] & 0xff) << 8)
                | (b[off + 3] & 0xff);
    }

    static long int64(byte[] b, int off) {
        return ((long) int32(b, off) << 32) | (int32(b, off + 4) & 0xffffffffL);
    }

    /**
     * numeric's binary form: digit count, weight (of the first base-10000 digit), sign, display
     * scale, then the digits. The text path read PostgreSQL's text, which shows exactly the display
     * scale's fraction digits: the BigDecimal has that scale.
     */
    static BigDecimal numeric(byte[] b, int off) throws PgTypes.Unrepresentable {
        int ndigits = int16(b, off);
        int weight = int16(b, off + 2);
        int sign = int16(b, off + 4) & 0xffff;
        int dscale = int16(b, off + 6) & 0xffff;
        switch (sign) {
            case NUMERIC_NAN -> throw unrepresentableNumeric("NaN");
            case NUMERIC_PINF -> throw unrepresentableNumeric("Infinity");
            case NUMERIC_NINF -> throw unrepresentableNumeric("-Infinity");
            default -> {}
        }
        // the value is the digits as one integer times 10000^(weight - ndigits + 1)
        int scale = -4 * (weight - ndigits + 1);
        BigDecimal value;
        if (ndigits <= 4) { // at most 16 decimal digits: fits a long
            long unscaled = 0;
            for (int i = 0; i < ndigits; i++) {
                unscaled = unscaled * 10_000 + int16(b, off + 8 + 2 * i);
            }
            value = BigDecimal.valueOf(sign == NUMERIC_NEG ? -unscaled : unscaled, scale);
        } else {
            StringBuilder digits = new StringBuilder(ndigits * 4 + 1);
            if (sign == NUMERIC_NEG) {
                digits.append('-');
            }
            for (int i = 0; i < ndigits; i++) {
                String d = Integer.toString(int16(b, off + 8 + 2 * i));
                digits.append("0000", d.length(), 4).append(d);
            }
            value = new BigDecimal(new BigInteger(digits.toString()), scale);
        }
        // PostgreSQL drops trailing zero digits and pads to the display scale: never a rounding
        return value.setScale(dscale, RoundingMode.UNNECESSARY);
    }

    private static PgTypes.Unrepresentable unrepresentableNumeric(String text) {
        return new PgTypes.Unrepresentable(
                "numeric value " + text + " has no DECIMAL representation");
    }

    /** Days from 2000-01-01; {@code int} extremes are {@code infinity} and {@code -infinity}. */
    static LocalDate date(int days) throws PgTypes.Unrepresentable {
        infinite(days == Integer.MAX_VALUE, days == Integer.MIN_VALUE, "date");
        return LocalDate.ofEpochDay(days + PG_EPOCH_DAYS);
    }

    /** Microseconds from midnight; {@code 24:00:00}, which pgjdbc reads as LocalTime.MAX. */
    static LocalTime time(long micros) {
        return micros >= MICROS_PER_DAY ? LocalTime.MAX : LocalTime.ofNanoOfDay(micros * 1000);
    }

    /** Microseconds from 2000-01-01 00:00; {@code long} extremes are the infinities. */
    static LocalDateTime timestamp(long micros) throws PgTypes.Unrepresentable {
        infinite(micros == Long.MAX_VALUE, micros == Long.MIN_VALUE, "timestamp");
        return LocalDateTime.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L) + PG_EPOCH_SECONDS,
                (int) Math.floorMod(micros, 1_000_000L) * 1000,
                ZoneOffset.UTC);
    }

    /** Microseconds from 2000-01-01 00:00 UTC; {@code long} extremes are the infinities. */
    static Instant timestamptz(long micros) throws PgTypes.Unrepresentable {
        infinite(micros == Long.MAX_VALUE, micros == Long.MIN_VALUE, "timestamptz");
        return Instant.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L) + PG_EPOCH_SECONDS,
                Math.floorMod(micros, 1_000_000L) * 1000);
    }

    private static void infinite(boolean positive, boolean negative, String type)
            throws PgTypes.Unrepresentable {
        if (positive || negative) {
            throw new PgTypes.Unrepresentable(
                    type
                            + " value "
                            + (positive ? "infinity" : "-infinity")
                            + " has no finite representation");
        }
    }
}
