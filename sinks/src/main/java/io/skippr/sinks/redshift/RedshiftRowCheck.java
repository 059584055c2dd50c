package io.skippr.sinks.redshift;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The values Redshift cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY): text, JSON and long decimals over VARCHAR's 65,535 bytes or
 * holding NUL, bytes over VARBYTE's 1,024,000, a decimal with more integer digits than its numeric
 * column, dates and timestamps outside the years 1 to 9999 (the text form COPY reads).
 */
final class RedshiftRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    private static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);
    private static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);

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
            case DATE -> date((LocalDate) v);
            case TIMESTAMP -> date(((LocalDateTime) v).toLocalDate());
            case TIMESTAMP_TZ ->
                    date(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC).toLocalDate());
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
        int integerDigits = Math.max(0, d.precision() - d.scale());
        if (integerDigits > type.precision() - type.scale()) {
            return d.toPlainString()
                    + " has more integer digits than numeric("
                    + type.precision()
                    + ","
                    + type.scale()
                    + ") holds";
        }
        return null;
    }

    private static String date(LocalDate d) {
        return d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE)
                ? d + " is outside the years 1 to 9999 that Skippr loads into Redshift"
                : null;
    }
}
