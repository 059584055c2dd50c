package io.skippr.sinks.glue;

import io.skippr.core.record.DataType;

/**
 * The Hive type (as Glue and Athena name it) of each Skippr type, matching what the file sinks'
 * Parquet writer stores, so Athena reads the files through the table:
 *
 * <table>
 *   <caption>Skippr type, Parquet column, Glue column type</caption>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td><td>boolean</td></tr>
 *   <tr><td>INT16</td><td>INT32 (INT(16))</td><td>smallint</td></tr>
 *   <tr><td>INT32</td><td>INT32</td><td>int</td></tr>
 *   <tr><td>INT64</td><td>INT64</td><td>bigint</td></tr>
 *   <tr><td>FLOAT32</td><td>FLOAT</td><td>float</td></tr>
 *   <tr><td>FLOAT64</td><td>DOUBLE</td><td>double</td></tr>
 *   <tr><td>DECIMAL(p,s), 1 ≤ p ≤ 38</td><td>BINARY (DECIMAL(p,s))</td><td>decimal(p,s)</td></tr>
 *   <tr><td>DECIMAL unbounded or p &gt; 38</td><td>BINARY (STRING), exact text</td><td>string</td></tr>
 *   <tr><td>STRING</td><td>BINARY (STRING)</td><td>string</td></tr>
 *   <tr><td>JSON</td><td>BINARY (JSON)</td><td>string</td></tr>
 *   <tr><td>UUID</td><td>FIXED_LEN_BYTE_ARRAY(16) (UUID)</td><td>binary</td></tr>
 *   <tr><td>BYTES</td><td>BINARY</td><td>binary</td></tr>
 *   <tr><td>DATE</td><td>INT32 (DATE)</td><td>date</td></tr>
 *   <tr><td>TIME</td><td>INT64 (TIME(MICROS))</td><td>bigint (microseconds after midnight)</td></tr>
 *   <tr><td>TIMESTAMP</td><td>INT64 (TIMESTAMP(MICROS, local))</td><td>timestamp</td></tr>
 *   <tr><td>TIMESTAMP_TZ</td><td>INT64 (TIMESTAMP(MICROS, UTC))</td><td>timestamp (UTC)</td></tr>
 * </table>
 *
 * <p>Hive tables have no time, time-zone or UUID types; those land as the nearest type that reads
 * the stored column. Keep this table in step with {@code files/ParquetSchemas} and {@code
 * docs/connectors/glue.md}.
 */
public final class HiveTypes {
    /** The widest decimal the Parquet writer stores as a decimal (ParquetSchemas' limit). */
    static final int MAX_DECIMAL_PRECISION = 38;

    private HiveTypes() {}

    public static String of(DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> "boolean";
            case INT16 -> "smallint";
            case INT32 -> "int";
            case INT64, TIME -> "bigint";
            case FLOAT32 -> "float";
            case FLOAT64 -> "double";
            case DECIMAL ->
                    type.precision() > 0 && type.precision() <= MAX_DECIMAL_PRECISION
                            ? "decimal(" + type.precision() + "," + type.scale() + ")"
                            : "string";
            case STRING, JSON -> "string";
            case UUID, BYTES -> "binary";
            case DATE -> "date";
            case TIMESTAMP, TIMESTAMP_TZ -> "timestamp";
        };
    }
}
