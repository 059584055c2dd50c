package io.skippr.sources.postgres;

import io.skippr.core.record.StreamSchema;
import java.util.List;

/** A split being read: advances as the reader emits its rows. */
final class PostgresSplitState {
    private final PostgresSplit split;
    private final StreamSchema schema;
    private final long schemaVersion;
    private List<String> lastKey;
    private long rowsEmitted;

    PostgresSplitState(PostgresSplit split) {
        this.split = split;
        this.schema = split.table().streamSchema();
        this.schemaVersion = schema.version();
        this.lastKey = split.lastKey();
        this.rowsEmitted = split.rowsEmitted();
    }

    StreamSchema schema() {
        return schema;
    }

    long schemaVersion() {
        return schemaVersion;
    }

    /** Records that the row with {@code key} (null without a key), the n-th, was emitted. */
    void advance(List<String> key, long ordinal) {
        if (key != null) {
            lastKey = key;
        }
        rowsEmitted = ordinal;
    }

    PostgresSplit toSplit() {
        return split.withProgress(lastKey, rowsEmitted);
    }
}
