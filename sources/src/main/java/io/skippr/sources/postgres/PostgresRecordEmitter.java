package io.skippr.sources.postgres;

import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.sources.StreamBytes;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;

/**
 * Emits a split's records and advances its state. Before the first record of a stream (and of each
 * new schema version of it) this reader emits, it emits the stream's {@link SchemaChange}; a
 * restored reader is a new instance, so it announces its schemas again.
 */
final class PostgresRecordEmitter
        implements RecordEmitter<ReadRecord, SourceRecord, PostgresSplitState> {
    private final Map<String, Long> announced = new HashMap<>();
    private final StreamBytes bytes;
    private StreamSchema lastSchema; // of the record emitted last, announced
    private long lastVersion;

    PostgresRecordEmitter(StreamBytes bytes) {
        this.bytes = bytes;
    }

    @Override
    public void emitRecord(
            ReadRecord element, SourceOutput<SourceRecord> output, PostgresSplitState state) {
        if (element.record() instanceof ReadPosition position) {
            output.collect(position); // before or after the split's rows: no progress of its own
            if (!io.skippr.core.record.ReadPositions.isOpening(position.position())) {
                state.sent(position);
            }
            return;
        }
        StreamSchema schema = state.schema();
        long version = state.schemaVersion();
        if (schema != lastSchema || version != lastVersion) { // a split's rows share one schema
            Long seen = announced.get(schema.stream());
            if (seen == null || seen != version) {
                output.collect(new SchemaChange(schema));
                announced.put(schema.stream(), version);
            }
            lastSchema = schema;
            lastVersion = version;
        }
        output.collect(element.record());
        bytes.read(schema.stream(), element.bytes());
        state.advance(element.key(), element.ordinal(), element.unseen());
    }
}
