package io.skippr.job;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Counts the rows handed to a sink, per stream, on their way in; passes everything through. */
final class WrittenCounter extends ProcessFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private transient Map<String, LongCounter> counters;

    @Override
    public void processElement(SourceRecord record, Context ctx, Collector<SourceRecord> out) {
        if (record instanceof Row row) {
            if (counters == null) {
                counters = new HashMap<>();
            }
            counters.computeIfAbsent(
                            row.stream(),
                            s -> {
                                LongCounter c = new LongCounter();
                                getRuntimeContext()
                                        .addAccumulator(
                                                Progress.accumulator(Progress.WRITTEN, s), c);
                                return c;
                            })
                    .add(1);
        }
        out.collect(record);
    }
}
