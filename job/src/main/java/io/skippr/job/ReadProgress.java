package io.skippr.job;

import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.Undecodable;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Right after a continuous source, on its subtask: before each checkpoint barrier it sends, per
 * split being read, how far its records went ({@link ReadPositions#progress}), so the checkpoint
 * commits the position of exactly the rows it commits. A split's own position after its rows says
 * it was read to its end. The source names each split before its rows ({@link
 * ReadPositions#opening}); this step keeps those openings to itself.
 *
 * <p>Stateless: a restored source names its restored splits again.
 */
final class ReadProgress extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** Per stream, the opening of the split being read and the position of its last record. */
    private transient Map<String, String[]> reading;

    @Override
    public void open() throws Exception {
        super.open();
        reading = new HashMap<>();
    }

    @Override
    public void processElement(StreamRecord<SourceRecord> element) {
        SourceRecord record = element.getValue();
        if (record instanceof ReadPosition p) {
            if (ReadPositions.isOpening(p.position())) {
                reading.put(p.stream(), new String[] {p.position(), null, null});
                return;
            }
            reading.remove(p.stream()); // read to its end: the position says so
        } else if (record instanceof Row row) {
            advance(row.stream(), row.position());
        } else if (record instanceof Undecodable u) {
            advance(u.stream(), u.position());
        }
        output.collect(element);
    }

    private void advance(String stream, String position) {
        String[] split = reading.get(stream);
        if (split != null) {
            split[1] = position;
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        for (Map.Entry<String, String[]> e : reading.entrySet()) {
            String[] split = e.getValue();
            if (split[1] != null && !split[1].equals(split[2])) { // records since the last one
                String opening = ReadPositions.openingEntry(split[0]);
                output.collect(
                        new StreamRecord<>(
                                new ReadPosition(
                                        e.getKey(),
                                        ReadPositions.of(
                                                java.util.List.of(
                                                        ReadPositions.progress(
                                                                opening, split[1]))))));
                split[2] = split[1];
            }
        }
    }
}
