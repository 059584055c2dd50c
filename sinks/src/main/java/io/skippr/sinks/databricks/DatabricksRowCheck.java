package io.skippr.sinks.databricks;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;

/**
 * The values Databricks cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY INTO): a decimal with more integer digits or more fraction
 * digits than its DECIMAL column, dates and timestamps outside the years 1 to 9999 (Databricks'
 * supported range).
 */
final class DatabricksRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, DatabricksRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        return switch (type.kind()) {
            case DECIMAL -> decimal(type, (BigDecimal) v);
            case DATE, TIMESTAMP, TIMESTAMP_TZ ->
                    RowCheck.outsideYears1To9999(v, "Databricks stores");
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
}
