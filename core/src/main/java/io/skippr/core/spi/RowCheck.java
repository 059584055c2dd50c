package io.skippr.core.spi;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * What a destination cannot store, checked before a row reaches its writer: a row that fails
 * becomes a deadletter of the {@code load} stage instead of failing the job.
 */
@FunctionalInterface
public interface RowCheck extends Serializable {
    RowCheck NONE = (schema, row) -> null;

    /** Why {@code row} cannot be loaded, or null if it can. */
    String problem(StreamSchema schema, Row row);

    /** Why a destination cannot store one non-null value of a type, or null if it can. */
    @FunctionalInterface
    interface ValueCheck {
        String problem(DataType type, Object value);
    }

    /**
     * The first of {@code row}'s non-null values that {@code check} refuses, as {@code column NAME:
     * problem}; null if it refuses none.
     */
    static String firstProblem(StreamSchema schema, Row row, ValueCheck check) {
        Object[] values = row.values();
        for (int i = 0; i < schema.columns().size() && i < values.length; i++) {
            if (values[i] != null) {
                Column column = schema.columns().get(i);
                String problem = check.problem(column.type(), values[i]);
                if (problem != null) {
                    return "column " + column.name() + ": " + problem;
                }
            }
        }
        return null;
    }

    /**
     * A date, a timestamp's date or an instant's UTC date outside the years 1 to 9999, which no
     * warehouse Skippr stages for takes: {@code "<date> is outside the years 1 to 9999 that
     * <where>"}; null for a date inside them or a value of another type.
     */
    static String outsideYears1To9999(Object value, String where) {
        LocalDate d;
        if (value instanceof LocalDate date) {
            d = date;
        } else if (value instanceof LocalDateTime timestamp) {
            d = timestamp.toLocalDate();
        } else if (value instanceof Instant instant) {
            d = LocalDateTime.ofInstant(instant, ZoneOffset.UTC).toLocalDate();
        } else {
            return null;
        }
        return d.getYear() < 1 || d.getYear() > 9999
                ? d + " is outside the years 1 to 9999 that " + where
                : null;
    }

    /**
     * A decimal with more integer digits than a {@code DECIMAL(p,s)}-like column of {@code type}
     * holds: {@code "<value> has more integer digits than <typeName>(p,s) holds"}; else null.
     */
    static String tooManyIntegerDigits(DataType type, BigDecimal value, String typeName) {
        int integerDigits = Math.max(0, value.precision() - value.scale());
        return integerDigits > type.precision() - type.scale()
                ? value.toPlainString()
                        + " has more integer digits than "
                        + typeName
                        + "("
                        + type.precision()
                        + ","
                        + type.scale()
                        + ") holds"
                : null;
    }
}
