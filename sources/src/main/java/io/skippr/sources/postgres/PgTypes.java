package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import java.util.Set;

/**
 * PostgreSQL types to Skippr's {@link DataType}s; {@link BinaryValues} reads their values as the
 * Java classes of {@link DataType.Kind}. The mapping is documented in docs/connectors/postgres.md.
 */
public final class PgTypes {
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
    public static DataType map(String typname, boolean builtin, char category, int typmod) {
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
}
