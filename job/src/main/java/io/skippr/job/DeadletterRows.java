package io.skippr.job;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * Turns deadletters into rows of the {@code skippr_deadletters} stream, so that any data-sink kind
 * can be a deadletter sink; the stream's schema goes first on every subtask. Each row carries the
 * data run it belongs to ({@link Deadletter#toRow}).
 */
final class DeadletterRows implements FlatMapFunction<Deadletter, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final long dataRun;
    private transient boolean schemaSent;

    /**
     * @param dataRun the data sink's run ({@link io.skippr.core.spi.SkipprSink#nextRun})
     */
    DeadletterRows(long dataRun) {
        this.dataRun = dataRun;
    }

    @Override
    public void flatMap(Deadletter deadletter, Collector<SourceRecord> out) {
        if (!schemaSent) {
            out.collect(new SchemaChange(Deadletter.SCHEMA));
            schemaSent = true;
        }
        out.collect(deadletter.toRow(dataRun));
    }
}
