package io.skippr.job;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Counts the rows handed to a sink, per stream, on their way in; passes everything through. */
final class WrittenCounter extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private transient StreamCounters written;

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<SourceRecord> out) {
        if (record instanceof Row row) {
            if (written == null) {
                written = new StreamCounters(Progress.WRITTEN, getRuntimeContext());
            }
            written.add(row.stream(), 1);
        }
        out.collect(record);
    }
}
