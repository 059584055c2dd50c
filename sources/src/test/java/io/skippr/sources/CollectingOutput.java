package io.skippr.sources;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;

/** Collects what a source reader or record emitter outputs, for every split alike. */
public class CollectingOutput implements ReaderOutput<SourceRecord> {
    public final List<SourceRecord> records = new ArrayList<>();

    /** The rows among the records, in order. */
    public List<Row> rows() {
        return records.stream().filter(Row.class::isInstance).map(Row.class::cast).toList();
    }

    @Override
    public void collect(SourceRecord record) {
        records.add(record);
    }

    @Override
    public void collect(SourceRecord record, long timestamp) {
        records.add(record);
    }

    @Override
    public void emitWatermark(Watermark watermark) {}

    @Override
    public void markIdle() {}

    @Override
    public void markActive() {}

    @Override
    public SourceOutput<SourceRecord> createOutputForSplit(String splitId) {
        return this;
    }

    @Override
    public void releaseOutputForSplit(String splitId) {}
}
