package io.skippr.sinks.redshift;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * The values Redshift cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY): text, JSON and long decimals over VARCHAR's 65,535 bytes or
 * holding NUL, bytes over VARBYTE's 1,024,000, a decimal with more integer digits than its numeric
 * column, dates and timestamps outside the years 1 to 9999 (the text form COPY reads).
 */
final class RedshiftRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, RedshiftRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        return switch (type.kind()) {
            case STRING, JSON -> text((String) v);
            case DECIMAL -> decimal(type, (BigDecimal) v);
            case BYTES ->
                    ((byte[]) v).length > RedshiftDialect.MAX_VARBYTE_BYTES
                            ? "Redshift VARBYTE holds at most 1024000 bytes, and this value has "
                                    + ((byte[]) v).length
                            : null;
            case DATE, TIMESTAMP, TIMESTAMP_TZ ->
                    RowCheck.outsideYears1To9999(v, "Skippr loads into Redshift");
            default -> null;
        };
    }

    private static String text(String s) {
        if (s.indexOf('\u0000') >= 0) {
            return "Redshift VARCHAR cannot hold the NUL character (U+0000)";
        }
        int bytes =
                s.length() <= RedshiftDialect.MAX_VARCHAR_BYTES / 3
                        ? s.length()
                        : s.getBytes(StandardCharsets.UTF_8).length;
        return bytes > RedshiftDialect.MAX_VARCHAR_BYTES
                ? "Redshift VARCHAR holds at most 65535 bytes, and this value has " + bytes
                : null;
    }

    private static String decimal(DataType type, BigDecimal d) {
        if (!RedshiftDialect.numeric(type)) {
            return text(d.toPlainString());
        }
        return RowCheck.tooManyIntegerDigits(type, d, "numeric");
    }
}
