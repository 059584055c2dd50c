package io.skippr.sinks.clickhouse;

import io.skippr.core.record.DataType;
import java.util.List;

/**
 * Skippr's types as ClickHouse column types, written as the server prints them in {@code
 * system.columns} so they compare as text. The server this is built for (18.16) has no DateTime64,
 * Bool, Date32 or JSON type; see docs/connectors/clickhouse.md for the whole mapping.
 */
final class ClickHouseTypes {
    /** Decimal precisions the server stores; others keep their exact text in a String. */
    static final int MAX_DECIMAL_PRECISION = 38;

    private static final List<String> INTEGERS = List.of("Int16", "Int32", "Int64");
    private static final List<String> FLOATS = List.of("Float32", "Float64");

    private ClickHouseTypes() {}

    /** The column type for {@code type}, without Nullable. */
    static String of(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "UInt8";
            case INT16 -> "Int16";
            case INT32 -> "Int32";
            case INT64 -> "Int64";
            case FLOAT32 -> "Float32";
            case FLOAT64 -> "Float64";
            case DECIMAL ->
                    storesDecimal(type)
                            ? "Decimal(" + type.precision() + ", " + type.scale() + ")"
                            : "String";
            case STRING, JSON, BYTES, TIME -> "String";
            case UUID -> "UUID";
            case DATE -> "Date";
            case TIMESTAMP, TIMESTAMP_TZ -> "DateTime('UTC')";
        };
    }

    /** The type of a source column: every source column is nullable. */
    static String column(DataType type) {
        return "Nullable(" + of(type) + ")";
    }

    static boolean storesDecimal(DataType type) {
        return type.isDecimalWithin(MAX_DECIMAL_PRECISION);
    }

    /** How an existing column relates to the type a schema wants for it. */
    enum Fit {
        /** The column takes every value of the wanted type. */
        HOLDS,
        /** The wanted type is a wider type of the same family: the column is widened. */
        WIDEN,
        /** The values would not fit. */
        CONFLICT
    }

    static Fit fit(String existing, String wanted) {
        String have = unwrap(existing);
        String want = unwrap(wanted);
        if (have.equals(want) || have.equals("String")) {
            return Fit.HOLDS;
        }
        for (List<String> family : List.of(INTEGERS, FLOATS)) {
            if (family.contains(have) && family.contains(want)) {
                return family.indexOf(have) >= family.indexOf(want) ? Fit.HOLDS : Fit.WIDEN;
            }
        }
        int[] h = decimal(have);
        int[] w = decimal(want);
        if (h != null && w != null && h[1] == w[1]) {
            return h[0] >= w[0] ? Fit.HOLDS : Fit.WIDEN;
        }
        return Fit.CONFLICT;
    }

    private static String unwrap(String type) {
        return type.startsWith("Nullable(") && type.endsWith(")")
                ? type.substring("Nullable(".length(), type.length() - 1)
                : type;
    }

    /** {precision, scale} of {@code Decimal(p, s)}, or null. */
    private static int[] decimal(String type) {
        if (!type.startsWith("Decimal(") || !type.endsWith(")")) {
            return null;
        }
        String[] ps = type.substring("Decimal(".length(), type.length() - 1).split(",");
        return ps.length == 2
                ? new int[] {Integer.parseInt(ps[0].trim()), Integer.parseInt(ps[1].trim())}
                : null;
    }
}
