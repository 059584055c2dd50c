package io.skippr.sinks.files;

import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.nio.file.Path;

/** Writes the rows of one schema version into one file; {@link #close()} completes the file. */
public interface RowFileWriter extends AutoCloseable {
    void write(Row row) throws IOException;

    /** Bytes written so far, for rolling by size. */
    long bytesWritten();

    @Override
    void close() throws IOException;

    /** Opens a writer of {@code format} for rows of {@code schema} at {@code path}. */
    static RowFileWriter open(FileFormat format, String compression, StreamSchema schema, Path path)
            throws IOException {
        return switch (format) {
            case PARQUET -> new ParquetRowFileWriter(schema, path, compression);
            case JSONL -> new JsonlRowFileWriter(schema, path, compression);
            case CSV -> new CsvRowFileWriter(schema, path, compression);
        };
    }
}
