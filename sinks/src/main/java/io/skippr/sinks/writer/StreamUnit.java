package io.skippr.sinks.writer;

import io.skippr.core.record.CursorValues;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;

/**
 * One stream's open unit in a sink writer (a file, a staging table, a set of data files): the rows
 * of one schema version written into it since it opened, counted, with their largest cursor value,
 * which its committable carries so the committer can record how far the stream got.
 */
public abstract class StreamUnit {
    private final StreamSchema schema;
    private final long version; // looked up once: StreamSchema.version() hashes the whole schema
    private final int cursorIndex;
    private long rows;
    private Object maxCursor;
    private Object minCursor;
    private long checksum;

    protected StreamUnit(StreamSchema schema) {
        this.schema = schema;
        this.version = schema.version();
        this.cursorIndex =
                schema.cursorColumn() == null ? -1 : schema.indexOf(schema.cursorColumn());
    }

    /** The schema version all of the unit's rows were read under. */
    public final StreamSchema schema() {
        return schema;
    }

    public final long version() {
        return version;
    }

    /** The rows written into the unit so far. */
    public final long rows() {
        return rows;
    }

    /** Counts a row once it is written into the unit, keeping its cursor value if the largest. */
    public final void count(Row row) {
        rows++;
        if (row.id() != null) {
            checksum += idHash(row.id());
        }
        if (cursorIndex >= 0 && cursorIndex < row.values().length) {
            Object value = row.value(cursorIndex);
            maxCursor = CursorValues.max(maxCursor, value);
            minCursor = CursorValues.min(minCursor, value);
        }
    }

    /**
     * A row's part of a load's checksum: the first 60 bits (15 hex digits) of its {@code
     * _skippr_id}. A load's checksum is the sum of its rows' parts, wrapping at 2^64, so it is the
     * same in any order and can be recomputed from the ids a destination holds.
     */
    public static long idHash(String id) {
        return id.length() < 15 ? 0 : Long.parseLong(id, 0, 15, 16);
    }

    /** The checksum of the unit's rows ({@link #idHash}). */
    public final long checksum() {
        return checksum;
    }

    /** The smallest cursor value of the unit's rows, as text; null without a cursor or rows. */
    public final String minCursor() {
        return minCursor == null ? null : CursorValues.toText(minCursor);
    }

    /** The largest cursor value of the unit's rows, as text; null without a cursor or rows. */
    public final String maxCursor() {
        return maxCursor == null ? null : CursorValues.toText(maxCursor);
    }

    /** The kind of the stream's cursor column, by name; null for a stream without a cursor. */
    public final String cursorType() {
        return cursorIndex < 0 ? null : schema.columns().get(cursorIndex).type().kind().name();
    }
}
