package io.skippr.core.record;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The schema versions a sink writer has been sent, per stream, so that each row finds the schema it
 * was read under. Schemas reach a writer before their rows (the normaliser emits a {@link
 * SchemaChange} first).
 */
public final class SchemaVersions {
    private final Map<String, Map<Long, StreamSchema>> byStream = new HashMap<>();

    /** Whether this version of the schema's stream has been added. */
    public boolean has(StreamSchema schema) {
        return byStream.getOrDefault(schema.stream(), Map.of()).containsKey(schema.version());
    }

    public void add(StreamSchema schema) {
        byStream.computeIfAbsent(schema.stream(), s -> new HashMap<>())
                .put(schema.version(), schema);
    }

    /** The schema {@code row} was read under; fails when it never arrived. */
    public StreamSchema of(Row row) throws IOException {
        StreamSchema schema =
                byStream.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
        if (schema == null) {
            throw new IOException(
                    "row of stream "
                            + row.stream()
                            + " arrived before its schema version "
                            + row.schemaVersion());
        }
        return schema;
    }
}
