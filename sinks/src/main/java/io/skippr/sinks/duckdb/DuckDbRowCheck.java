package io.skippr.sinks.duckdb;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The values DuckDB cannot store, found before the writer sees them: timestamps beyond DuckDB's
 * 64-bit microsecond range (290309 BC to 294247 AD), dates beyond its 32-bit day range, a decimal
 * with more integer digits than its DECIMAL(p,s) column, and JSON that is not valid.
 */
final class DuckDbRowCheck implements RowCheck {
    private static final long serialVersionUID = 1L;
    private static final JsonFactory JSON = new JsonFactory();

    /** DuckDB's smallest finite timestamp, 290309-12-22 (BC) 00:00:00, in microseconds. */
    static final long MIN_MICROS = -9_223_372_022_400_000_000L;

    /** DuckDB's largest finite timestamp, 294247-01-10 04:00:54.775806 (infinity is MAX). */
    static final long MAX_MICROS = Long.MAX_VALUE - 1;

    @Override
    public String problem(StreamSchema schema, Row row) {
        return RowCheck.firstProblem(schema, row, DuckDbRowCheck::problem);
    }

    static String problem(DataType type, Object v) {
        switch (type.kind()) {
            case TIMESTAMP -> {
                LocalDateTime t = (LocalDateTime) v;
                return inRange(t::toString, () -> DuckDbAppenderLoader.micros(t));
            }
            case TIMESTAMP_TZ -> {
                Instant t = (Instant) v;
                return inRange(t::toString, () -> DuckDbAppenderLoader.micros(t));
            }
            case DATE -> {
                long day = ((LocalDate) v).toEpochDay();
                return day <= Integer.MIN_VALUE + 1 || day >= Integer.MAX_VALUE
                        ? "date " + v + " is outside DuckDB's range (5877642 BC to 5881580 AD)"
                        : null;
            }
            case DECIMAL -> {
                if (!DuckDbDialect.isDecimal(type.precision(), type.scale())) {
                    return null; // stored as exact text
                }
                BigDecimal rounded = ((BigDecimal) v).setScale(type.scale(), RoundingMode.HALF_UP);
                if (rounded.signum() != 0
                        && rounded.precision() - rounded.scale()
                                > type.precision() - type.scale()) {
                    return "the value "
                            + ((BigDecimal) v).toPlainString()
                            + " does not fit DECIMAL("
                            + type.precision()
                            + ","
                            + type.scale()
                            + ")";
                }
                return null;
            }
            case JSON -> {
                return json((String) v);
            }
            default -> {
                return null;
            }
        }
    }

    private interface Micros {
        long get();
    }

    private static String inRange(java.util.function.Supplier<String> text, Micros micros) {
        try {
            long m = micros.get();
            if (m >= MIN_MICROS && m <= MAX_MICROS) {
                return null;
            }
        } catch (ArithmeticException e) {
            // beyond 64 bits of microseconds
        }
        return "timestamp " + text.get() + " is outside DuckDB's range (290309 BC to 294247 AD)";
    }

    private static String json(String text) {
        try (JsonParser p = JSON.createParser(text)) {
            if (p.nextToken() == null) {
                return "empty text is not JSON";
            }
            p.skipChildren();
            return p.nextToken() == null ? null : "text after the JSON value";
        } catch (IOException e) {
            return "not valid JSON: " + e.getMessage();
        }
    }
}
