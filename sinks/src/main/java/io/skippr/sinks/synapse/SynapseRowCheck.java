package io.skippr.sinks.synapse;

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
 * The values Synapse cannot store as Skippr loads them, found before the writer stages them (one
 * bad value would fail the whole COPY INTO): text, JSON and long decimals over NVARCHAR(4000)'s
 * 4,000 UTF-16 code units, bytes over VARBINARY(8000), a decimal with more integer digits than its
 * DECIMAL column, dates and timestamps outside the years 1 to 9999.
 */
final class SynapseRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;

    private static final LocalDate MIN_DATE = LocalDate.of(1, 1, 1);
    private static final LocalDate MAX_DATE = LocalDate.of(9999, 12, 31);

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
            case DATE -> date((LocalDate) v);
            case TIMESTAMP -> date(((LocalDateTime) v).toLocalDate());
            case TIMESTAMP_TZ ->
                    date(LocalDateTime.ofInstant((Instant) v, ZoneOffset.UTC).toLocalDate());
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
        int integerDigits = Math.max(0, d.precision() - d.scale());
        if (integerDigits > type.precision() - type.scale()) {
            return d.toPlainString()
                    + " has more integer digits than DECIMAL("
                    + type.precision()
                    + ","
                    + type.scale()
                    + ") holds";
        }
        return null;
    }

    private static String date(LocalDate d) {
        return d.isBefore(MIN_DATE) || d.isAfter(MAX_DATE)
                ? d + " is outside the years 1 to 9999 that Synapse stores"
                : null;
    }
}
