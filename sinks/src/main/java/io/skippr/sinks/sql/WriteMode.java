package io.skippr.sinks.sql;

import java.util.Locale;

/** How a SQL sink applies a commit to its target tables (DESIGN §4). */
public enum WriteMode {
    /** Every row becomes a new row of the target. */
    APPEND,
    /** Upsert on the stream's primary key; rows whose operation is DELETE delete their key. */
    MERGE,
    /** A bounded run loads each stream into a new table that replaces the target. */
    REPLACE;

    /** {@code append}, {@code merge} or {@code replace}; null means append. */
    public static WriteMode of(String name) {
        if (name == null || name.isBlank()) {
            return APPEND;
        }
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "write_mode takes append, merge or replace, not '" + name + "'", e);
        }
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
