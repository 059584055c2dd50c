package io.skippr.sources.localfile;

import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.sources.StreamBytes;
import java.util.HashSet;
import java.util.Set;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;

/**
 * Emits a split's records and advances its state. Before the first Row of a schema version this
 * reader has not announced yet (since it started or was restored), it emits a SchemaChange.
 */
final class FileRecordEmitter implements RecordEmitter<FileRecord, SourceRecord, FileSplitState> {
    private final Set<Long> announced = new HashSet<>();
    private final StreamBytes bytes;
    private StreamSchema last;

    FileRecordEmitter(StreamBytes bytes) {
        this.bytes = bytes;
    }

    @Override
    public void emitRecord(
            FileRecord element, SourceOutput<SourceRecord> output, FileSplitState state) {
        if (element.record() instanceof Row && state.skips(element)) {
            // committed after a hole in the position: read past it
            bytes.read(element.record().stream(), state.advance(element));
            return;
        }
        if (element.record() instanceof Row row && element.schema() != last) {
            if (announced.add(row.schemaVersion())) {
                output.collect(new SchemaChange(element.schema()));
            }
            last = element.schema();
        }
        output.collect(element.record());
        if (element.record() instanceof ReadPosition position) { // it moves nothing on
            if (!io.skippr.core.record.ReadPositions.isOpening(position.position())) {
                state.sent(position);
            }
        } else {
            bytes.read(element.record().stream(), state.advance(element));
        }
    }
}
