package io.skippr.core.spi;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.Serializable;

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
}
