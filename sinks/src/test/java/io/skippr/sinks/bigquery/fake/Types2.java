package io.skippr.sinks.bigquery.fake;

import java.util.Locale;

/** BigQuery column types and the PostgreSQL types the fake keeps them as, both ways. */
final class Types2 {
    private Types2() {}

    /** The PostgreSQL type of a tables-API field type (legacy or standard name). */
    static String postgres(String type, String precision, String scale) throws BigQueryError {
        return switch (type.toUpperCase(Locale.ROOT)) {
            case "INTEGER", "INT64" -> "bigint";
            case "FLOAT", "FLOAT64" -> "double precision";
            case "BOOLEAN", "BOOL" -> "boolean";
            case "STRING" -> "text";
            case "BYTES" -> "bytea";
            case "DATE" -> "date";
            case "DATETIME" -> "timestamp";
            case "TIMESTAMP" -> "timestamptz";
            case "TIME" -> "time";
            case "JSON" -> "jsonb";
            case "NUMERIC" ->
                    precision == null
                            ? "numeric(38,9)"
                            : "numeric(" + precision + "," + (scale == null ? "0" : scale) + ")";
            case "BIGNUMERIC" ->
                    precision == null
                            ? "numeric"
                            : "numeric(" + precision + "," + (scale == null ? "0" : scale) + ")";
            default -> throw BigQueryError.notImplemented("columns of type " + type);
        };
    }

    /**
     * The tables API's type (legacy name), precision and scale of a PostgreSQL type as {@code
     * information_schema} or result metadata names it.
     */
    static String[] bigQuery(String pgType, Integer precision, Integer scale) {
        String t = pgType.toLowerCase(Locale.ROOT);
        return switch (t) {
            case "bigint", "int8", "integer", "int4", "smallint", "int2" ->
                    new String[] {"INTEGER", null, null};
            case "double precision", "float8", "real", "float4" ->
                    new String[] {"FLOAT", null, null};
            case "boolean", "bool" -> new String[] {"BOOLEAN", null, null};
            case "bytea" -> new String[] {"BYTES", null, null};
            case "date" -> new String[] {"DATE", null, null};
            case "timestamp without time zone", "timestamp" ->
                    new String[] {"DATETIME", null, null};
            case "timestamp with time zone", "timestamptz" ->
                    new String[] {"TIMESTAMP", null, null};
            case "time without time zone", "time" -> new String[] {"TIME", null, null};
            case "jsonb", "json" -> new String[] {"JSON", null, null};
            case "numeric" -> numeric(precision, scale);
            default -> new String[] {"STRING", null, null};
        };
    }

    private static String[] numeric(Integer precision, Integer scale) {
        if (precision == null || precision <= 0 || precision >= 1000) {
            return new String[] {"BIGNUMERIC", null, null};
        }
        int s = scale == null ? 0 : scale;
        String kind = precision - s <= 29 && s <= 9 ? "NUMERIC" : "BIGNUMERIC";
        return new String[] {kind, Integer.toString(precision), Integer.toString(s)};
    }
}
