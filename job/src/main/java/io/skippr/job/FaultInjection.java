package io.skippr.job;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * For recovery tests: the operator that fires a {@link FailPoint.Stage#MID_BATCH} fail point when a
 * subtask passes its nth row, in the middle of a checkpoint's batch.
 */
final class FaultInjection implements MapFunction<SourceRecord, SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final FailPoint failPoint;
    private transient FailPoint.Trigger trigger;

    FaultInjection(FailPoint failPoint) {
        this.failPoint = failPoint;
    }

    @Override
    public SourceRecord map(SourceRecord record) throws IOException {
        if (record instanceof Row) {
            if (trigger == null) {
                trigger = failPoint.trigger();
            }
            trigger.reached(FailPoint.Stage.MID_BATCH);
        }
        return record;
    }
}
