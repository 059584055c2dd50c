package io.skippr.cli.verify;

import io.skippr.core.record.DataType;

/**
 * The canonical texts of {@link Canonical} computed by ClickHouse (18.16) from the columns the
 * ClickHouse sink creates (docs/connectors/clickhouse.md): BOOLEAN as UInt8, TIME as {@code
 * hh:mm:ss[.ffffff]} text, BYTES as raw bytes in a String, an unbounded DECIMAL as its text,
 * timestamps as DateTime('UTC') in whole seconds (the source side drops its fraction too, {@link
 * Canonical.Form#wholeSeconds()}).
 */
final class ClickHouseCanonical {
    private ClickHouseCanonical() {}

    static String value(DataType type, String column) {
        return switch (type.kind()) {
            case BOOLEAN ->
                    "CASE WHEN " + column + " = 1 THEN 't' WHEN " + column + " = 0 THEN 'f' END";
            case INT16, INT32, INT64, UUID, STRING, JSON -> "toString(" + column + ")";
            case FLOAT32, FLOAT64 ->
                    nullable(column, floating("toString(toFloat64(" + column + "))"));
            case DECIMAL ->
                    nullable(
                            column,
                            "if(position(toString("
                                    + column
                                    + "), '.') > 0, replaceRegexpOne(toString("
                                    + column
                                    + "), '\\\\.?0+$', ''), toString("
                                    + column
                                    + "))");
            case BYTES -> "lower(hex(" + column + "))";
            case DATE -> "toString(toUInt16(" + column + "))";
            case TIME -> nullable(column, time("assumeNotNull(" + column + ")"));
            case TIMESTAMP, TIMESTAMP_TZ ->
                    "toString(toUInt64(toUnixTimestamp(" + column + ")) * 1000000)";
        };
    }

    private static String nullable(String column, String sql) {
        return "CASE WHEN " + column + " IS NULL THEN NULL ELSE " + sql + " END";
    }

    /** {@code hh:mm:ss[.ffffff]} to microseconds since midnight. */
    private static String time(String t) {
        return "toString(toUInt64OrZero(substring("
                + t
                + ", 1, 2)) * 3600000000 + toUInt64OrZero(substring("
                + t
                + ", 4, 2)) * 60000000 + toUInt64OrZero(substring("
                + t
                + ", 7, 2)) * 1000000 + toUInt64OrZero(substring(concat(substring("
                + t
                + ", 10), '000000'), 1, 6)))";
    }

    /** {@link Canonical#floating} in ClickHouse's functions. */
    private static String floating(String text) {
        String t = "assumeNotNull(" + text + ")";
        String a = "replaceRegexpOne(" + t + ", '^-', '')";
        String mantissa = "splitByChar('e', " + a + ")[1]";
        String exponent =
                "if(position("
                        + a
                        + ", 'e') > 0, toInt32OrZero(splitByChar('e', "
                        + a
                        + ")[2]), 0)";
        String whole = "splitByChar('.', " + mantissa + ")[1]";
        String digits =
                "concat("
                        + whole
                        + ", if(position("
                        + mantissa
                        + ", '.') > 0, splitByChar('.', "
                        + mantissa
                        + ")[2], ''))";
        String stripped = "replaceRegexpOne(" + digits + ", '^0+', '')";
        String sign = "if(substring(" + t + ", 1, 1) = '-', '-', '')";
        return "multiIf(lower("
                + t
                + ") = 'nan', 'NaN', lower("
                + t
                + ") IN ('inf', 'infinity'), 'Infinity', lower("
                + t
                + ") IN ('-inf', '-infinity'), '-Infinity', "
                + stripped
                + " = '', concat("
                + sign
                + ", '0'), concat("
                + sign
                + ", replaceRegexpOne("
                + stripped
                + ", '0+$', ''), 'e', toString(toInt32(length("
                + whole
                + ")) + "
                + exponent
                + " - (toInt32(length("
                + digits
                + ")) - toInt32(length("
                + stripped
                + "))))))";
    }
}
