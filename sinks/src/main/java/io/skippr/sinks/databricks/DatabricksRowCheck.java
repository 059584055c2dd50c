package io.skippr.sinks.databricks;

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
 * The values Databricks cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY INTO): a decimal with more integer digits or more fraction
 * digits than its DECIMAL column, dates and timestamps outside the years 1 to 9999 (Databricks'
 * supported range).
 */
final class DatabricksRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    private static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);
    private static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, DatabricksRowCheck::problem);
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
        if (!DatabricksDialect.decimal(type)) {
            return null;
        }
        int integerDigits = Math.max(0, d.precision() - d.scale());
        if (integerDigits > type.precision() - type.scale()
                || d.stripTrailingZeros().scale() > type.scale()) {
            return d.toPlainString()
                    + " does not fit DECIMAL("
                    + type.precision()
                    + ","
                    + type.scale()
                    + ")";
        }
        return null;
    }

    private static String date(LocalDate d) {
        return d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE)
                ? d + " is outside the years 1 to 9999 that Databricks stores"
                : null;
    }
}
