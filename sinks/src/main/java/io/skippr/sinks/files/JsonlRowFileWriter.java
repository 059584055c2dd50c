package io.skippr.sinks.files;

import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.nio.file.Path;

/** JSON Lines: one object per row, with {@code _skippr_id} and {@code _skippr_synced_at}. */
final class JsonlRowFileWriter implements RowFileWriter {
    private final StreamSchema schema;
    private final TextOutput output;

    JsonlRowFileWriter(StreamSchema schema, Path path, String compression) throws IOException {
        this.schema = schema;
        this.output = new TextOutput(path, compression);
    }

    @Override
    public void write(Row row) throws IOException {
        JsonText.writeRow(output.writer(), schema, row, false);
        output.writer().write('\n');
    }

    @Override
    public long bytesWritten() {
        return output.bytes();
    }

    @Override
    public void close() throws IOException {
        output.close();
    }
}
