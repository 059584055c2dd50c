package io.skippr.sinks.stdout;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.bounded.BoundedSinkTopology;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;

/** The Stdout data sink: JSON lines on standard output, at-least-once. */
public final class StdoutSinkFactory implements SinkFactory, KeepsDeadletters {
    @Override
    public String kind() {
        return "Stdout";
    }

    /** None: it commits no positions (at-least-once), so a bounded run reads from the start. */
    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return Map.of();
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("Stdout");
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                return Map.of(); // standard output keeps nothing to resume from
            }

            @Override
            public DataStream<Long> addTo(
                    DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter) {
                return BoundedSinkTopology.addTo(
                        records,
                        new StdoutSink(context.failPoint()),
                        uid,
                        commitAfter,
                        context.bounded());
            }
        };
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.NotReadBack(
                "prints each deadletter as a line and keeps nothing, so there is nothing to read"
                        + " back");
    }
}
