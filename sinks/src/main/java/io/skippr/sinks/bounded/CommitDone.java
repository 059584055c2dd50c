package io.skippr.sinks.bounded;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Sends one token once its input ended: put after a bounded run's committers (which commit at the
 * end of their input), it says the run committed, as every committer subtask finished.
 */
final class CommitDone<T> extends AbstractStreamOperator<Long>
        implements OneInputStreamOperator<T, Long>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    @Override
    public void processElement(StreamRecord<T> element) {}

    @Override
    public void endInput() {
        output.collect(new StreamRecord<>(1L));
    }
}
