package io.skippr.sinks.bigquery;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * The values BigQuery cannot store as Skippr loads them, found before the writer appends them (one
 * bad value would fail the whole append): a decimal with more integer or fraction digits than its
 * NUMERIC or BIGNUMERIC column, dates, DATETIMEs and TIMESTAMPs outside the years 1 to 9999.
 */
final class BigQueryRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    private static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);
    private static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, BigQueryRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        return switch (type.kind()) {
            case DECIMAL -> decimal(type, (BigDecimal) v);
            case DATE -> date((LocalDate) v);
            case TIMESTAMP -> date(((LocalDateTime) v).toLocalDate());
            case TIMESTAMP_TZ ->
                    date(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC).toLocalDate());
            default -> null;
        };
    }

    private static String decimal(DataType type, BigDecimal d) {
        String column = BigQueryDialect.decimal(type);
        int integer;
        int scale;
        if (column.equals("STRING")) {
            return null;
        } else if (column.equals("BIGNUMERIC")) {
            integer = 38;
            scale = 38;
        } else {
            integer = type.precision() - type.scale();
            scale = type.scale();
        }
        int integerDigits = Math.max(0, d.precision() - d.scale());
        if (integerDigits > integer || d.stripTrailingZeros().scale() > scale) {
            return d.toPlainString() + " does not fit " + column;
        }
        return null;
    }

    private static String date(LocalDate d) {
        return d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE)
                ? d + " is outside the years 1 to 9999 that BigQuery stores"
                : null;
    }
}
