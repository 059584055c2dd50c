package io.skippr.sinks.sql;

import io.skippr.core.record.StreamSchema;
import java.util.Locale;

/** How a SQL sink applies a commit to its target tables (DESIGN §4). */
public enum WriteMode {
    /**
     * No write mode written: {@link #MERGE} for a stream with a primary key, so a rerun mirrors the
     * source instead of adding it again, and {@link #APPEND} for a stream without one.
     */
    DEFAULT,
    /** Every row becomes a new row of the target. */
    APPEND,
    /** Upsert on the stream's primary key; rows whose operation is DELETE delete their key. */
    MERGE,
    /** A bounded run loads each stream into a new table that replaces the target. */
    REPLACE;

    /** {@code append}, {@code merge} or {@code replace}; null or blank means {@link #DEFAULT}. */
    public static WriteMode of(String name) {
        if (name == null || name.isBlank()) {
            return DEFAULT;
        }
        try {
            WriteMode mode = valueOf(name.trim().toUpperCase(Locale.ROOT));
            if (mode != DEFAULT) {
                return mode;
            }
        } catch (IllegalArgumentException e) {
            // falls through to the error below
        }
        throw new IllegalArgumentException(
                "write_mode takes append, merge or replace, not '" + name + "'");
    }

    /** The mode a stream's rows are applied with: {@link #DEFAULT} resolved by its key. */
    public WriteMode of(StreamSchema stream) {
        if (this != DEFAULT) {
            return this;
        }
        return stream.primaryKey().isEmpty() ? APPEND : MERGE;
    }

    /** Whether a stream's rows may be added again by a rerun that reads them again. */
    public boolean appends(StreamSchema stream) {
        return of(stream) == APPEND;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
