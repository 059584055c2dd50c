package io.skippr.sinks.files;

import io.skippr.core.record.Column;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Base64;

/** RFC 4180 CSV with a header row; nulls are empty fields, metadata columns come last. */
final class CsvRowFileWriter implements RowFileWriter {
    private final StreamSchema schema;
    private final TextOutput output;

    CsvRowFileWriter(StreamSchema schema, Path path, String compression) throws IOException {
        this.schema = schema;
        this.output = new TextOutput(path, compression);
        Writer w = output.writer();
        for (Column column : schema.columns()) {
            field(w, column.name());
            w.write(',');
        }
        w.write(JsonText.ID + "," + JsonText.SYNCED_AT + "\r\n");
    }

    @Override
    public void write(Row row) throws IOException {
        Writer w = output.writer();
        for (int i = 0; i < schema.size(); i++) {
            Object value = i < row.values().length ? row.value(i) : null;
            if (value != null) {
                field(w, text(value));
            }
            w.write(',');
        }
        field(w, row.id());
        w.write(',');
        w.write(JsonText.syncedAt(row).toString());
        w.write("\r\n");
    }

    private static String text(Object value) {
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] b) {
            return Base64.getEncoder().encodeToString(b);
        }
        return value.toString();
    }

    private static void field(Writer w, String s) throws IOException {
        if (s.isEmpty()) {
            w.write("\"\"");
            return;
        }
        boolean quote =
                s.indexOf(',') >= 0
                        || s.indexOf('"') >= 0
                        || s.indexOf('\n') >= 0
                        || s.indexOf('\r') >= 0
                        || s.charAt(0) == ' '
                        || s.charAt(s.length() - 1) == ' ';
        if (!quote) {
            w.write(s);
            return;
        }
        w.write('"');
        w.write(s.replace("\"", "\"\""));
        w.write('"');
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
