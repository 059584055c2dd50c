package io.skippr.core.record;

import java.util.Objects;

/**
 * A column's type in Skippr's record model, independent of any source or destination. Each kind has
 * one Java value class (see {@link #javaClass()}); precision and scale matter for DECIMAL.
 */
public record DataType(Kind kind, int precision, int scale) {

    /** The kinds of value a column can hold. */
    public enum Kind {
        BOOLEAN(Boolean.class),
        INT16(Short.class),
        INT32(Integer.class),
        INT64(Long.class),
        FLOAT32(Float.class),
        FLOAT64(Double.class),
        DECIMAL(java.math.BigDecimal.class),
        STRING(String.class),
        /** JSON text, kept as its text. */
        JSON(String.class),
        UUID(java.util.UUID.class),
        BYTES(byte[].class),
        DATE(java.time.LocalDate.class),
        TIME(java.time.LocalTime.class),
        /** A timestamp without zone. */
        TIMESTAMP(java.time.LocalDateTime.class),
        /** An instant: a timestamp with zone, normalised to UTC. */
        TIMESTAMP_TZ(java.time.Instant.class);

        private final Class<?> javaClass;

        Kind(Class<?> javaClass) {
            this.javaClass = javaClass;
        }

        public Class<?> javaClass() {
            return javaClass;
        }
    }

    public static final DataType BOOLEAN = of(Kind.BOOLEAN);
    public static final DataType INT16 = of(Kind.INT16);
    public static final DataType INT32 = of(Kind.INT32);
    public static final DataType INT64 = of(Kind.INT64);
    public static final DataType FLOAT32 = of(Kind.FLOAT32);
    public static final DataType FLOAT64 = of(Kind.FLOAT64);
    public static final DataType STRING = of(Kind.STRING);
    public static final DataType JSON = of(Kind.JSON);
    public static final DataType UUID = of(Kind.UUID);
    public static final DataType BYTES = of(Kind.BYTES);
    public static final DataType DATE = of(Kind.DATE);
    public static final DataType TIME = of(Kind.TIME);
    public static final DataType TIMESTAMP = of(Kind.TIMESTAMP);
    public static final DataType TIMESTAMP_TZ = of(Kind.TIMESTAMP_TZ);

    public DataType {
        Objects.requireNonNull(kind, "kind");
    }

    public static DataType of(Kind kind) {
        return new DataType(kind, 0, 0);
    }

    /** A decimal; precision 0 means unbounded (PostgreSQL's bare numeric). */
    public static DataType decimal(int precision, int scale) {
        return new DataType(Kind.DECIMAL, precision, scale);
    }

    public Class<?> javaClass() {
        return kind.javaClass();
    }

    /**
     * Whether this is a decimal with a stated precision of at most {@code maxPrecision} and a scale
     * from 0 to its precision: one a destination's {@code DECIMAL(p,s)} column can hold exactly.
     */
    public boolean isDecimalWithin(int maxPrecision) {
        return kind == Kind.DECIMAL
                && precision > 0
                && precision <= maxPrecision
                && scale >= 0
                && scale <= precision;
    }

    @Override
    public String toString() {
        return kind == Kind.DECIMAL && precision > 0
                ? "DECIMAL(" + precision + "," + scale + ")"
                : kind.name();
    }
}
