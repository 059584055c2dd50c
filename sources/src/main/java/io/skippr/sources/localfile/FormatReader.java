package io.skippr.sources.localfile;

import io.skippr.core.record.Column;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the records of one file split, resuming after the records the split has already read. Rows
 * carry the position {@code <absolute path>#<record number from 1>}, or {@code <absolute
 * path>~<generation>#<record number>} once the file was rewritten and is read again ({@link
 * FileEntry}).
 */
abstract class FormatReader implements Closeable {
    protected final Path file;
    protected final String stream;
    protected StreamSchema schema;
    protected long version;
    protected final Map<String, Integer> index = new HashMap<>();
    protected long recordsRead;
    private final String prefix;

    protected FormatReader(FileSplit split) {
        this.file = Path.of(split.path());
        this.schema = split.schema();
        this.stream = schema.stream();
        this.version = schema.version();
        this.prefix = split.generation() == 0 ? file + "#" : file + "~" + split.generation() + "#";
        for (int i = 0; i < schema.size(); i++) {
            index.putIfAbsent(schema.columns().get(i).name(), i);
        }
    }

    static FormatReader open(FileSplit split) throws IOException {
        return switch (split.format()) {
            case CSV -> new CsvFileReader(split);
            case JSONL -> new JsonlFileReader(split);
            case PARQUET -> new ParquetFileRecordReader(split);
        };
    }

    /** The next record, or null at the end of the file. */
    abstract FileRecord next() throws IOException;

    /**
     * After {@link #next} returned null: the offset reading ended at, past any blank lines after
     * the last record ({@link #recordsRead} counts them too); -1 where offsets are not used.
     */
    long offsetAtEnd() {
        return -1;
    }

    long recordsRead() {
        return recordsRead;
    }

    /** A new schema version with {@code more} columns appended. */
    protected void evolve(List<Column> more) {
        schema = schema.withColumns(more);
        version = schema.version();
        for (int i = 0; i < schema.size(); i++) {
            index.putIfAbsent(schema.columns().get(i).name(), i);
        }
    }

    /** The position of the record just read. */
    protected String position() {
        return prefix + recordsRead;
    }

    protected FileRecord row(Object[] values, long offset) {
        return new FileRecord(
                Row.insert(stream, version, values, position()), schema, recordsRead, offset);
    }

    protected FileRecord undecodable(String payload, String error, long offset) {
        return new FileRecord(
                new Undecodable(stream, payload, error, position()), schema, recordsRead, offset);
    }
}
