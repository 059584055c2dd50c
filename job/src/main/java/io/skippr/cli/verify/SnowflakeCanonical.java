package io.skippr.cli.verify;

import io.skippr.core.record.DataType;

/**
 * The canonical texts of {@link Canonical} computed by Snowflake from the columns the Snowflake
 * sink creates (docs/connectors/snowflake.md), in functions Snowflake has: {@code DATEDIFF} for
 * dates and times, {@code DATE_PART(EPOCH_MICROSECOND, …)} for timestamps (of a TIMESTAMP_TZ, since
 * the epoch in UTC), {@code HEX_ENCODE(…, 0)} for BINARY (lower-case hex), a decimal without
 * precision as the text it is stored as. A FLOAT is compared as the text {@code TO_VARCHAR} prints
 * (15 significant digits: Snowflake's doubles have "approximately 15 digits" of precision), and the
 * source's connection is set alike ({@link VerifyCommand#fifteenDigits}).
 */
final class SnowflakeCanonical {
    private SnowflakeCanonical() {}

    static String value(DataType type, String column) {
        return switch (type.kind()) {
            case BOOLEAN ->
                    "CASE WHEN " + column + " THEN 't' WHEN NOT " + column + " THEN 'f' END";
            case INT16, INT32, INT64, UUID, STRING, JSON -> Canonical.text(column);
            case FLOAT32, FLOAT64 -> Canonical.floating("to_varchar(" + column + ")");
            case DECIMAL -> Canonical.decimal(Canonical.text(column));
            case BYTES -> "hex_encode(" + column + ", 0)";
            case DATE ->
                    Canonical.text("datediff(day, CAST('1970-01-01' AS DATE), " + column + ")");
            case TIME ->
                    Canonical.text(
                            "datediff(microsecond, CAST('00:00:00' AS TIME), " + column + ")");
            case TIMESTAMP, TIMESTAMP_TZ ->
                    Canonical.text("date_part(epoch_microsecond, " + column + ")");
        };
    }
}
