package io.skippr.sinks.bounded;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Holds a bounded run's committables (input 1) on their way to the committer until the stream of
 * another sink's commit (input 2) has ended with its token, then hands them all on. A run whose
 * other sink failed never gets here: the job fails first, and nothing was handed on.
 */
final class CommitGate<C> extends AbstractStreamOperator<CommittableMessage<C>>
        implements TwoInputStreamOperator<CommittableMessage<C>, Long, CommittableMessage<C>>,
                BoundedMultiInput {
    private static final long serialVersionUID = 1L;

    private final String waitsFor;
    private transient List<CommittableMessage<C>> held;
    private transient long tokens;
    private transient int ended;

    /**
     * @param waitsFor what input 2 is, for the message when it ends without its token
     */
    CommitGate(String waitsFor) {
        this.waitsFor = waitsFor;
    }

    @Override
    public void open() throws Exception {
        super.open();
        held = new ArrayList<>();
    }

    @Override
    public void processElement1(StreamRecord<CommittableMessage<C>> element) {
        held.add(element.getValue());
    }

    @Override
    public void processElement2(StreamRecord<Long> element) {
        tokens++;
    }

    @Override
    public void endInput(int input) {
        if (++ended < 2) {
            return;
        }
        if (tokens == 0) {
            throw new IllegalStateException(
                    waitsFor + " ended without saying it committed: refusing to commit after it");
        }
        for (CommittableMessage<C> message : held) {
            output.collect(new StreamRecord<>(message));
        }
        held.clear();
    }
}
