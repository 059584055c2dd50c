package io.skippr.job;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.RowCheck;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Sends rows the data sink cannot store (its {@link RowCheck}) to the deadletter side output, at
 * the {@code load} stage, so that one bad value does not stop the pipeline.
 */
final class LoadChecker extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final String pipeline;
    private final RowCheck check;
    private transient Map<String, Map<Long, StreamSchema>> schemas;
    private transient StreamCounters deadlettered;

    LoadChecker(String pipeline, RowCheck check) {
        this.pipeline = pipeline;
        this.check = check;
    }

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<SourceRecord> out) {
        if (schemas == null) {
            schemas = new HashMap<>();
            deadlettered =
                    new StreamCounters(Progress.LOAD_DEADLETTERED, pipeline, getRuntimeContext());
        }
        if (record instanceof SchemaChange change) {
            deadlettered.add(change.stream(), 0);
            schemas.computeIfAbsent(change.stream(), s -> new HashMap<>())
                    .put(change.schema().version(), change.schema());
        } else if (record instanceof Row row) {
            StreamSchema schema =
                    schemas.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
            String problem = schema == null ? null : check.problem(schema, row);
            if (problem != null) {
                deadlettered.add(row.stream(), 1);
                ctx.output(
                        Normaliser.DEADLETTERS,
                        deadletter(pipeline, schema, row, "UnloadableValue", problem));
                return;
            }
        }
        out.collect(record);
    }

    /** A row that did not load, as a deadletter of the {@code load} stage. */
    static Deadletter deadletter(
            String pipeline, StreamSchema schema, Row row, String errorClass, String message) {
        return new Deadletter(
                pipeline,
                row.stream(),
                Deadletter.LOAD,
                errorClass,
                message,
                Normaliser.nowMicros(),
                row.position(),
                Payloads.of(schema, row));
    }
}
