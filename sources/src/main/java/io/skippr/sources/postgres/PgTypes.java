package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Set;
import java.util.UUID;

/**
 * PostgreSQL types to Skippr's {@link DataType}s, and values read from a result set as the Java
 * classes of {@link DataType.Kind}. The mapping is documented in docs/connectors/postgres.md.
 */
final class PgTypes {
    /** Built-in types read as STRING with their text. */
    private static final Set<String> TEXT_TYPES =
            Set.of("text", "varchar", "bpchar", "name", "char");

    private PgTypes() {}

    /**
     * The Skippr type of a (domain-resolved) base type.
     *
     * @param typname pg_type.typname
     * @param builtin true when the type lives in pg_catalog
     * @param category pg_type.typcategory ({@code A} for arrays)
     * @param typmod the type modifier, -1 for none
     */
    static DataType map(String typname, boolean builtin, char category, int typmod) {
        if (category == 'A') {
            return DataType.STRING;
        }
        if (!builtin) {
            // citext is an extension type, installed in whichever schema the user chose
            return DataType.STRING;
        }
        return switch (typname) {
            case "int2" -> DataType.INT16;
            case "int4" -> DataType.INT32;
            case "int8" -> DataType.INT64;
            case "float4" -> DataType.FLOAT32;
            case "float8" -> DataType.FLOAT64;
            case "numeric" -> numeric(typmod);
            case "bool" -> DataType.BOOLEAN;
            case "json", "jsonb" -> DataType.JSON;
            case "uuid" -> DataType.UUID;
            case "bytea" -> DataType.BYTES;
            case "date" -> DataType.DATE;
            case "time" -> DataType.TIME;
            case "timestamp" -> DataType.TIMESTAMP;
            case "timestamptz" -> DataType.TIMESTAMP_TZ;
            default -> DataType.STRING; // text types, and PostgreSQL's text form of the rest
        };
    }

    /** True for types whose natural order is usable in ORDER BY and comparisons. */
    static boolean nativeOrder(DataType type, String typname, boolean builtin) {
        return switch (type.kind()) {
            case JSON -> false;
            case STRING -> (builtin && TEXT_TYPES.contains(typname)) || typname.equals("citext");
            default -> true;
        };
    }

    /** numeric(p,s) as DECIMAL(p,s); bare numeric as DECIMAL(0,0), meaning unbounded. */
    static DataType numeric(int typmod) {
        if (typmod < 4) {
            return DataType.decimal(0, 0);
        }
        int packed = typmod - 4;
        int precision = (packed >> 16) & 0xffff;
        // PostgreSQL 15 allows a negative scale: 11 bits, sign-extended
        int scale = ((packed & 0x7ff) ^ 1024) - 1024;
        return DataType.decimal(precision, scale);
    }

    /** A value PostgreSQL holds that has no value of the column's Skippr type (NaN, infinity). */
    static final class Unrepresentable extends Exception {
        private static final long serialVersionUID = 1L;

        Unrepresentable(String message) {
            super(message);
        }
    }

    /**
     * Reads column {@code index} (1-based) as the Java class of {@code kind}; null for SQL NULL.
     *
     * @throws Unrepresentable for numeric NaN and infinities, and infinite dates and timestamps
     */
    static Object read(ResultSet rs, int index, DataType.Kind kind)
            throws SQLException, Unrepresentable {
        switch (kind) {
            case BOOLEAN -> {
                boolean v = rs.getBoolean(index);
                return rs.wasNull() ? null : v;
            }
            case INT16 -> {
                short v = rs.getShort(index);
                return rs.wasNull() ? null : v;
            }
            case INT32 -> {
                int v = rs.getInt(index);
                return rs.wasNull() ? null : v;
            }
            case INT64 -> {
                long v = rs.getLong(index);
                return rs.wasNull() ? null : v;
            }
            case FLOAT32 -> {
                float v = rs.getFloat(index);
                return rs.wasNull() ? null : v;
            }
            case FLOAT64 -> {
                double v = rs.getDouble(index);
                return rs.wasNull() ? null : v;
            }
            case DECIMAL -> {
                String text = rs.getString(index);
                if (text == null) {
                    return null;
                }
                if (text.equals("NaN") || text.endsWith("Infinity")) {
                    throw new Unrepresentable(
                            "numeric value " + text + " has no DECIMAL representation");
                }
                return new BigDecimal(text);
            }
            case STRING, JSON -> {
                return rs.getString(index);
            }
            case UUID -> {
                String text = rs.getString(index);
                return text == null ? null : UUID.fromString(text);
            }
            case BYTES -> {
                return rs.getBytes(index);
            }
            case DATE -> {
                // one decode: pgjdbc reads infinity as LocalDate.MAX and -infinity as MIN
                LocalDate v = rs.getObject(index, LocalDate.class);
                return v == null
                        ? null
                        : finite(v, v.equals(LocalDate.MAX), v.equals(LocalDate.MIN), "date");
            }
            case TIME -> {
                return rs.getObject(index, LocalTime.class);
            }
            case TIMESTAMP -> {
                LocalDateTime v = rs.getObject(index, LocalDateTime.class);
                return v == null
                        ? null
                        : finite(
                                v,
                                v.equals(LocalDateTime.MAX),
                                v.equals(LocalDateTime.MIN),
                                "timestamp");
            }
            case TIMESTAMP_TZ -> {
                OffsetDateTime v = rs.getObject(index, OffsetDateTime.class);
                return v == null
                        ? null
                        : finite(
                                        v,
                                        v.equals(OffsetDateTime.MAX),
                                        v.equals(OffsetDateTime.MIN),
                                        "timestamptz")
                                .toInstant();
            }
            default -> throw new IllegalStateException("unmapped kind " + kind);
        }
    }

    /**
     * {@code v}, or Unrepresentable when pgjdbc read PostgreSQL's {@code infinity} ({@code
     * positive}) or {@code -infinity} ({@code negative}); no finite PostgreSQL value reaches the
     * Java MAX and MIN it reads them as.
     */
    private static <T> T finite(T v, boolean positive, boolean negative, String type)
            throws Unrepresentable {
        if (positive || negative) {
            throw new Unrepresentable(
                    type
                            + " value "
                            + (positive ? "infinity" : "-infinity")
                            + " has no finite representation");
        }
        return v;
    }
}
