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

    /** The entry of this split's own file in the position it sent after its rows; else null. */
    private String sent;

    void sent(io.skippr.core.record.ReadPosition position) {
        for (String line : io.skippr.core.record.ReadPositions.entries(position.position())) {
            if (FileEntry.parse(line).file().equals(split.path())) {
                sent = line;
            }
        }
    }

    String sent() {
        return sent;
    }

    String path() {
        return split.path();
    }

    /**
     * Moves past {@code record}.
     *
     * @return the bytes of the file it took up (CSV and JSONL; 0 for Parquet, whose records carry
     *     no offset)
     */
    long advance(FileRecord record) {
        long bytes = record.byteOffset() > byteOffset ? record.byteOffset() - byteOffset : 0;
        schema = record.schema();
        recordsRead = record.recordsRead();
        byteOffset = record.byteOffset();
        return bytes;
    }

    /** The stream the split's rows belong to; null before its schema is known. */
    String stream() {
        return schema == null ? null : schema.stream();
    }

    boolean isParquet() {
        return split.format() == FileFormat.PARQUET;
    }

    FileSplit toSplit() {
        return new FileSplit(
                split.path(),
                split.format(),
                schema,
                recordsRead,
                byteOffset,
                split.generation(),
                split.carried(),
                split.endOffset(),
                split.number(),
                null,
                split.skip());
    }

    /**
     * Whether the reader reads past {@code record} without emitting it ({@link FileSplit#skip}).
     */
    boolean skips(FileRecord record) {
        return split.skips(record.recordsRead());
    }
}
