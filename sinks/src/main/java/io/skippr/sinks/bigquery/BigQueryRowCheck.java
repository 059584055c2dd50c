package io.skippr.sinks.bigquery;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;

/**
 * The values BigQuery cannot store as Skippr loads them, found before the writer appends them (one
 * bad value would fail the whole append): a decimal with more integer or fraction digits than its
 * NUMERIC or BIGNUMERIC column, dates, DATETIMEs and TIMESTAMPs outside the years 1 to 9999.
 */
final class BigQueryRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    /** An unparameterised BIGNUMERIC's integer and fraction digits. */
    private static final int BIGNUMERIC_DIGITS = 38;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, BigQueryRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        return switch (type.kind()) {
            case DECIMAL -> decimal(type, (BigDecimal) v);
            case DATE, TIMESTAMP, TIMESTAMP_TZ ->
                    RowCheck.outsideYears1To9999(v, "BigQuery stores");
            default -> null;
        };
    }

    private static String decimal(DataType type, BigDecimal d) {
        String column = BigQueryDialect.decimal(type);
        if (column.equals("STRING")) {
            return null;
        }
        if (column.equals("BIGNUMERIC")) {
            int integerDigits = Math.max(0, d.precision() - d.scale());
            return integerDigits > BIGNUMERIC_DIGITS
                            || d.stripTrailingZeros().scale() > BIGNUMERIC_DIGITS
                    ? d.toPlainString() + " does not fit BIGNUMERIC"
                    : null;
        }
        String name = column.substring(0, column.indexOf('('));
        String integer = RowCheck.tooManyIntegerDigits(type, d, name);
        if (integer != null) {
            return integer;
        }
        return d.stripTrailingZeros().scale() > type.scale()
                ? d.toPlainString() + " has more fraction digits than " + column + " holds"
                : null;
    }
}
