package io.skippr.sources.localfile;

import io.skippr.core.record.StreamSchema;

/** A reader's mutable progress through one split; becomes a {@link FileSplit} at a checkpoint. */
final class FileSplitState {
    private final FileSplit split;
    private StreamSchema schema;
    private long recordsRead;
    private long byteOffset;

    FileSplitState(FileSplit split) {
        this.split = split;
        this.schema = split.schema();
        this.recordsRead = split.recordsRead();
        this.byteOffset = split.byteOffset();
    }

    void advance(FileRecord record) {
        schema = record.schema();
        recordsRead = record.recordsRead();
        byteOffset = record.byteOffset();
    }

    FileSplit toSplit() {
        return new FileSplit(
                split.path(),
                split.format(),
                schema,
                recordsRead,
                byteOffset,
                split.generation(),
                split.carried());
    }
}
