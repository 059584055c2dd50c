package io.skippr.sources.localfile;

import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Helpers shared by the LocalFile tests. */
final class TestFiles {
    private TestFiles() {}

    static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, text.getBytes(StandardCharsets.UTF_8));
    }

    static Path write(Path file, byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes);
    }

    /** Reads a split to its end with the format reader, as a source reader would. */
    static List<FileRecord> readAll(FileSplit split) throws IOException {
        List<FileRecord> out = new ArrayList<>();
        try (FormatReader reader = FormatReader.open(split)) {
            for (FileRecord r = reader.next(); r != null; r = reader.next()) {
                out.add(r);
            }
        }
        return out;
    }

    /** The split the enumerator would make of one file: schema inferred from it alone. */
    static FileSplit split(Path file, FileFormat format, String stream) throws IOException {
        StreamSchema schema = SchemaInference.extend(stream, format, null, List.of(file));
        if (schema == null) {
            schema = new StreamSchema(stream, List.of(), List.of());
        }
        return FileSplit.unread(file.toString(), format, schema);
    }

    static List<Row> rows(List<? extends Object> records) {
        List<Row> out = new ArrayList<>();
        for (Object r : records) {
            Object record = r instanceof FileRecord f ? f.record() : r;
            if (record instanceof Row row) {
                out.add(row);
            }
        }
        return out;
    }

    static List<Undecodable> undecodables(List<? extends Object> records) {
        List<Undecodable> out = new ArrayList<>();
        for (Object r : records) {
            Object record = r instanceof FileRecord f ? f.record() : r;
            if (record instanceof Undecodable u) {
                out.add(u);
            }
        }
        return out;
    }

    static List<SchemaChange> schemaChanges(List<SourceRecord> records) {
        List<SchemaChange> out = new ArrayList<>();
        for (SourceRecord r : records) {
            if (r instanceof SchemaChange c) {
                out.add(c);
            }
        }
        return out;
    }
}
