package io.skippr.job;

import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.LoadProbe;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Holds the rows of one stream and schema version whose target the destination says it probes
 * ({@link LoadProbe.Session#probes}) back in batches and asks the destination ({@link LoadProbe})
 * which of them it refuses: those become deadletters of the {@code load} stage with the
 * destination's own error text, the others go on, in their order, to the sink. A batch ends at
 * {@link #BATCH} rows, at any record that is not one of its rows, at a checkpoint barrier (nothing
 * is held across a checkpoint, so this operator has no state) and at the end of the input.
 */
final class LoadProber extends AbstractStreamOperator<SourceRecord>
        implements OneInputStreamOperator<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    /** The most rows probed at once. */
    static final int BATCH = 10_000;

    private final String pipeline;
    private final LoadProbe probe;
    private transient LoadProbe.Session session;
    private transient Map<String, Map<Long, StreamSchema>> schemas;
    private transient List<Row> held;
    private transient StreamCounters deadlettered;

    LoadProber(String pipeline, LoadProbe probe) {
        this.pipeline = pipeline;
        this.probe = probe;
    }

    @Override
    public void open() throws Exception {
        super.open();
        schemas = new HashMap<>();
        held = new ArrayList<>();
        deadlettered =
                new StreamCounters(Progress.LOAD_DEADLETTERED, pipeline, getRuntimeContext());
        session = probe.open(getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
    }

    @Override
    public void processElement(StreamRecord<SourceRecord> element) throws Exception {
        SourceRecord record = element.getValue();
        if (record instanceof Row row) {
            StreamSchema schema =
                    schemas.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
            if (schema == null || !session.probes(schema)) {
                release();
                output.collect(element);
                return;
            }
            if (!held.isEmpty()
                    && (!held.get(0).stream().equals(row.stream())
                            || held.get(0).schemaVersion() != row.schemaVersion())) {
                release();
            }
            held.add(row);
            if (held.size() >= BATCH) {
                release();
            }
            return;
        }
        release();
        if (record instanceof SchemaChange change) {
            deadlettered.add(change.stream(), 0);
            schemas.computeIfAbsent(change.stream(), s -> new HashMap<>())
                    .put(change.schema().version(), change.schema());
        }
        output.collect(element);
    }

    /** Probes the held rows and passes on those the destination takes. */
    private void release() throws Exception {
        if (held.isEmpty()) {
            return;
        }
        Row first = held.get(0);
        StreamSchema schema = schemas.get(first.stream()).get(first.schemaVersion());
        Map<Integer, String> refused = session.refused(schema, held);
        for (int i = 0; i < held.size(); i++) {
            Row row = held.get(i);
            String reason = refused.get(i);
            if (reason == null) {
                output.collect(new StreamRecord<>(row));
            } else {
                deadlettered.add(row.stream(), 1);
                output.collect(
                        Normaliser.DEADLETTERS,
                        new StreamRecord<>(
                                LoadChecker.deadletter(
                                        pipeline, schema, row, "RefusedByDestination", reason)));
            }
        }
        held.clear();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        release();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void finish() throws Exception {
        release();
        super.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            if (session != null) {
                session.close();
            }
        } finally {
            super.close();
        }
    }
}
