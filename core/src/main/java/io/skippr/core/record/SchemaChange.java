package io.skippr.core.record;

/** A stream's schema at a version, emitted before the first row of that version. */
public record SchemaChange(StreamSchema schema) implements SourceRecord {
    @Override
    public String stream() {
        return schema.stream();
    }
}
