package io.skippr.core.record;

import java.util.Arrays;
import java.util.Objects;

/**
 * One row of a stream. Values are in the order of the schema version's columns, as the Java classes
 * of {@link DataType.Kind}. The position is deterministic (table and key, or file and line), so the
 * {@code _skippr_id} derived from it is the same when a row is replayed.
 *
 * @param id the {@code _skippr_id}, set by the normalise step; null before it
 * @param syncedAtMicros when the normalise step saw the row, microseconds since the epoch; 0 before
 *     it
 */
public record Row(
        String stream,
        long schemaVersion,
        Operation op,
        Object[] values,
        String position,
        String id,
        long syncedAtMicros)
        implements SourceRecord {

    public Row {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(values, "values");
        Objects.requireNonNull(position, "position");
    }

    public static Row insert(String stream, long schemaVersion, Object[] values, String position) {
        return new Row(stream, schemaVersion, Operation.INSERT, values, position, null, 0);
    }

    public Row withValues(Object[] newValues) {
        return new Row(stream, schemaVersion, op, newValues, position, id, syncedAtMicros);
    }

    public Row identified(String newId, long syncedAt) {
        return new Row(stream, schemaVersion, op, values, position, newId, syncedAt);
    }

    public Object value(int index) {
        return values[index];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Row r
                && stream.equals(r.stream)
                && schemaVersion == r.schemaVersion
                && op == r.op
                && Arrays.deepEquals(values, r.values)
                && position.equals(r.position)
                && Objects.equals(id, r.id)
                && syncedAtMicros == r.syncedAtMicros;
    }

    @Override
    public int hashCode() {
        return Objects.hash(stream, schemaVersion, op, Arrays.deepHashCode(values), position, id);
    }

    @Override
    public String toString() {
        return "Row[" + stream + "@" + position + " " + Arrays.deepToString(values) + "]";
    }
}
