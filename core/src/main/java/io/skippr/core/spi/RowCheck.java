package io.skippr.core.spi;

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
}
