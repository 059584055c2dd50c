package io.skippr.sinks.iceberg;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * How Skippr's types are stored in Iceberg columns, and its values as Iceberg's generic data model
 * holds them. Decimals keep precision and scale up to Iceberg's 38 digits (a wider declared
 * precision is stored as 38, and values that do not fit become deadletters through {@link
 * IcebergLimits}); unbounded decimals, which Iceberg cannot type, are stored as their exact text.
 * JSON is its text; smallint is an int (Iceberg has no 16-bit integer).
 */
public final class IcebergTypes {
    public static final int MAX_DECIMAL_PRECISION = 38;

    private IcebergTypes() {}

    /** The Iceberg type of a column of {@code type}. */
    public static Type of(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Types.BooleanType.get();
            case INT16, INT32 -> Types.IntegerType.get();
            case INT64 -> Types.LongType.get();
            case FLOAT32 -> Types.FloatType.get();
            case FLOAT64 -> Types.DoubleType.get();
            case DECIMAL -> decimal(type);
            case STRING, JSON -> Types.StringType.get();
            case UUID -> Types.UUIDType.get();
            case BYTES -> Types.BinaryType.get();
            case DATE -> Types.DateType.get();
            case TIME -> Types.TimeType.get();
            case TIMESTAMP -> Types.TimestampType.withoutZone();
            case TIMESTAMP_TZ -> Types.TimestampType.withZone();
        };
    }

    private static Type decimal(DataType type) {
        if (type.precision() <= 0) {
            return Types.StringType.get();
        }
        int precision = Math.min(type.precision(), MAX_DECIMAL_PRECISION);
        return Types.DecimalType.of(precision, Math.min(type.scale(), precision));
    }

    /**
     * Whether a table column of type {@code have} holds values of a stream column of Iceberg type
     * {@code want} as they are, or after a widening ({@link #value} converts them).
     */
    static boolean holds(Type have, Type want) {
        return have.equals(want)
                || (want.isPrimitiveType()
                        && TypeUtil.isPromotionAllowed(want, have.asPrimitiveType()));
    }

    /**
     * Whether a table column of type {@code have} can be widened in place to {@code want}, as
     * Iceberg allows: int to long, float to double, a decimal to a larger precision.
     */
    static boolean widens(Type have, Type want) {
        return want.isPrimitiveType() && TypeUtil.isPromotionAllowed(have, want.asPrimitiveType());
    }

    /** {@code value} (of its kind's Java class) as a column of type {@code target} holds it. */
    public static Object value(Object value, Type target) {
        if (value == null) {
            return null;
        }
        return switch (target.typeId()) {
            case INTEGER -> ((Number) value).intValue();
            case LONG -> ((Number) value).longValue();
            case FLOAT -> ((Number) value).floatValue();
            case DOUBLE -> ((Number) value).doubleValue();
            case DECIMAL ->
                    ((BigDecimal) value)
                            .setScale(
                                    ((Types.DecimalType) target).scale(), RoundingMode.UNNECESSARY);
            case STRING ->
                    value instanceof BigDecimal d ? d.toPlainString() : String.valueOf(value);
            case BINARY -> ByteBuffer.wrap((byte[]) value);
            case TIMESTAMP ->
                    value instanceof Instant instant
                            ? instant.atOffset(ZoneOffset.UTC)
                            : value; // LocalDateTime for a timestamp without zone
            default -> value; // boolean, UUID, date and time: the same Java classes
        };
    }
}
