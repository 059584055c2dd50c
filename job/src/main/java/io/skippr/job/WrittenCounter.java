package io.skippr.job;

import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Counts the rows handed to a sink, per stream, on their way in; passes everything through. */
final class WrittenCounter extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final String pipeline;
    private transient StreamCounters written;

    WrittenCounter(String pipeline) {
        this.pipeline = pipeline;
    }

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<SourceRecord> out) {
        if (written == null) {
            written = new StreamCounters(Progress.WRITTEN, pipeline, getRuntimeContext());
        }
        if (record instanceof Row row) {
            written.add(row.stream(), 1);
        } else if (record instanceof SchemaChange change) {
            written.add(change.stream(), 0);
        }
        out.collect(record);
    }
}
