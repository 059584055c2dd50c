package io.skippr.core.spi;

import io.skippr.core.record.SourceRecord;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.function.SerializableSupplier;

/** A destination as the job graph uses it. */
public interface SkipprSink {
    /**
     * Per stream, the highest cursor value this sink has committed, as text; where a bounded run
     * starts. Positions are committed with the data they came from, never before.
     */
    Map<String, String> committedPositions();

    /**
     * {@link #committedPositions} as a serializable function a source's task can call while the job
     * runs, to learn what the destination holds (a CDC source confirms its slot's LSN only up to
     * it); null for a sink that cannot be read from a task.
     */
    default SerializableSupplier<Map<String, String>> committedPositionsReader() {
        return null;
    }

    /**
     * Rows that continuous runs of the pipeline committed through this sink after the run that
     * {@link #committedPositions} come from: a run starting from those positions, because the
     * checkpoint that knows better is gone, would add them again. 0 when there are none, when
     * loading them again replaces them (merge), or when the sink cannot tell.
     */
    default long rowsAfterPositions() {
        return 0;
    }

    /**
     * Whether a row of {@code stream} read again is added again (append), rather than replacing
     * what an earlier run loaded (merge, replace).
     */
    default boolean appends(io.skippr.core.record.StreamSchema stream) {
        return true;
    }

    /** The rows this destination cannot store; they become deadletters at the load stage. */
    default RowCheck loadCheck() {
        return RowCheck.NONE;
    }

    /**
     * The destination's own check of the rows the {@link #loadCheck} passed, batch by batch; null
     * when it has no rules of its own that could refuse a row.
     */
    default LoadProbe loadProbe() {
        return null;
    }

    /** Adds the sink's operators to the graph; every operator's uid starts with {@code uid}. */
    default void addTo(DataStream<SourceRecord> records, String uid) {
        addTo(records, uid, null);
    }

    /**
     * Adds the sink's operators to the graph; every operator's uid starts with {@code uid}. In a
     * bounded run the sink commits only once {@code commitAfter} ended, and the stream returned
     * ends (after one element) only once the sink committed: a pipeline's data sink commits after
     * its deadletter sink, so data and positions never commit without their deadletters. A sink
     * that commits as it writes (ClickHouse, Stdout: at-least-once, no positions) cannot wait; its
     * stream ends when it wrote everything. A continuous run commits per checkpoint, both
     * committables in the same checkpoint: nothing waits, and this returns null.
     *
     * @param commitAfter a stream that ends once another sink committed, or null
     */
    DataStream<Long> addTo(
            DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter);

    /**
     * The data run the deadletters of this run belong to ({@code data_run}): one above the last run
     * whose commit this sink holds, so every attempt of a run gets the same number until one
     * commits. 1 for a sink that commits no positions (it reads its source from the start in every
     * run, so each run's deadletters replace the last one's).
     */
    default long nextRun() {
        return 1;
    }

    /**
     * Called by the process that ran the job once it ended, whether it succeeded, failed or was
     * stopped: releases what a failed run may still hold (PostgreSQL: its prepared transactions).
     * Must not throw.
     */
    default void afterRun() {}
}
