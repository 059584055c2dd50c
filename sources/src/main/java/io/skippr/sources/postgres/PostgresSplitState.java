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
    private Unseen unseen;
    private io.skippr.core.record.ReadPosition sent;

    PostgresSplitState(PostgresSplit split) {
        this.split = split;
        this.schema = split.table().streamSchema();
        this.schemaVersion = schema.version();
        this.lastKey = split.lastKey();
        this.rowsEmitted = split.rowsEmitted();
        this.unseen = split.unseen();
    }

    StreamSchema schema() {
        return schema;
    }

    long schemaVersion() {
        return schemaVersion;
    }

    /**
     * Records that the row with {@code key} (null without a key), the n-th, was emitted; {@code
     * notSeen}, when not null, is what the split's reads could not see.
     */
    void advance(List<String> key, long ordinal, Unseen notSeen) {
        if (key != null) {
            lastKey = key;
        }
        rowsEmitted = ordinal;
        if (notSeen != null) {
            unseen = notSeen;
        }
    }

    /** Records the position the split sent after its rows. */
    void sent(io.skippr.core.record.ReadPosition position) {
        sent = position;
    }

    /** The position the split sent after its rows; null before it finished. */
    io.skippr.core.record.ReadPosition sent() {
        return sent;
    }

    PostgresSplit toSplit() {
        return split.withProgress(lastKey, rowsEmitted, unseen);
    }
}
