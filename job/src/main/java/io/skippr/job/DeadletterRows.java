package io.skippr.job;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.job.deadletters.DeadletterReplay;
import java.util.HashMap;
import java.util.Map;
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
    private final HashMap<String, String> replayed;
    private transient boolean schemaSent;

    /**
     * @param dataRun the data sink's run ({@link io.skippr.core.spi.SkipprSink#nextRun})
     * @param replayed in a replay, per stream and source position ({@code stream \0 position}), the
     *     id of the deadletter replayed: a record that fails again becomes a deadletter of its own,
     *     marked as a replay of that one ({@code replay:<id>|<position>}), not a copy of it
     */
    DeadletterRows(long dataRun, Map<String, String> replayed) {
        this.dataRun = dataRun;
        this.replayed = new HashMap<>(replayed);
    }

    @Override
    public void flatMap(Deadletter deadletter, Collector<SourceRecord> out) {
        if (!schemaSent) {
            out.collect(new SchemaChange(Deadletter.SCHEMA));
            schemaSent = true;
        }
        String of = replayed.get(deadletter.stream() + "\u0000" + deadletter.position());
        Deadletter row =
                of == null
                        ? deadletter
                        : new Deadletter(
                                deadletter.pipeline(),
                                deadletter.stream(),
                                deadletter.stage(),
                                deadletter.errorClass(),
                                deadletter.errorMessage(),
                                deadletter.failedAtMicros(),
                                DeadletterReplay.replayPosition(of, deadletter.position()),
                                deadletter.payload());
        out.collect(row.toRow(dataRun));
    }
}
