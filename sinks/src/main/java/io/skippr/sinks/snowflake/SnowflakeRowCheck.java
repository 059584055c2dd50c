package io.skippr.sinks.snowflake;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import io.skippr.sinks.staged.StagedParquet;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * The values Snowflake cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY): text over VARCHAR's 16 MB, bytes over BINARY's 8 MB, a
 * decimal with more integer digits than its NUMBER column, dates and timestamps outside the years 1
 * to 9999.
 */
final class SnowflakeRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, SnowflakeRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        return switch (type.kind()) {
            case STRING, JSON -> text((String) v);
            case DECIMAL -> decimal(type, (BigDecimal) v);
            case BYTES ->
                    ((byte[]) v).length > SnowflakeDialect.MAX_BINARY_BYTES
                            ? "Snowflake BINARY holds at most 8388608 bytes, and this value has "
                                    + ((byte[]) v).length
                            : null;
            case DATE, TIMESTAMP, TIMESTAMP_TZ ->
                    RowCheck.outsideYears1To9999(v, "Skippr loads into Snowflake");
            default -> null;
        };
    }

    private static String text(String s) {
        if (s.length() <= SnowflakeDialect.MAX_VARCHAR_BYTES / 3) {
            return null;
        }
        int bytes = s.getBytes(StandardCharsets.UTF_8).length;
        return bytes > SnowflakeDialect.MAX_VARCHAR_BYTES
                ? "Snowflake VARCHAR holds at most 16777216 bytes, and this value has " + bytes
                : null;
    }

    private static String decimal(DataType type, BigDecimal d) {
        if (!StagedParquet.decimal(type)) {
            return text(d.toPlainString());
        }
        // the value as it is staged: rounded half up to the column's scale, as a NUMBER cast rounds
        BigDecimal staged = d.setScale(type.scale(), java.math.RoundingMode.HALF_UP);
        int integerDigits = Math.max(0, staged.precision() - staged.scale());
        if (integerDigits > type.precision() - type.scale()) {
            return d.toPlainString()
                    + " has more integer digits than NUMBER("
                    + type.precision()
                    + ","
                    + type.scale()
                    + ") holds";
        }
        return null;
    }
}
