package io.skippr.sinks.synapse;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.math.BigDecimal;

/**
 * The values Synapse cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY INTO): text, JSON and long decimals over NVARCHAR(4000)'s
 * 4,000 UTF-16 code units, bytes over VARBINARY(8000), a decimal with more integer digits than its
 * DECIMAL column, dates and timestamps outside the years 1 to 9999.
 */
final class SynapseRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, SynapseRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        return switch (type.kind()) {
            case STRING, JSON -> text((String) v);
            case DECIMAL -> decimal(type, (BigDecimal) v);
            case BYTES ->
                    ((byte[]) v).length > SynapseDialect.MAX_VARBINARY
                            ? "Synapse VARBINARY(8000) holds at most 8000 bytes, and this value has "
                                    + ((byte[]) v).length
                            : null;
            case DATE, TIMESTAMP, TIMESTAMP_TZ -> RowCheck.outsideYears1To9999(v, "Synapse stores");
            default -> null;
        };
    }

    private static String text(String s) {
        return s.length() > SynapseDialect.MAX_NVARCHAR
                ? "Synapse NVARCHAR(4000) holds at most 4000 UTF-16 code units, and this value has "
                        + s.length()
                : null;
    }

    private static String decimal(DataType type, BigDecimal d) {
        if (!SynapseDialect.decimal(type)) {
            return text(d.toPlainString());
        }
        return RowCheck.tooManyIntegerDigits(type, d, "DECIMAL");
    }
}
