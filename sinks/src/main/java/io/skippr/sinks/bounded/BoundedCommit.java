package io.skippr.sinks.bounded;

import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A sink whose bounded run commits in one operator of its own after its subtask committers (a SQL
 * sink's one transaction per run), which says when it committed.
 *
 * @param <C> the committable
 */
public interface BoundedCommit<C> {
    /**
     * Adds the run's commit after {@code committed}, the subtask committers' output.
     *
     * @return a stream with one element, sent once the run committed
     */
    DataStream<Long> addBoundedCommit(DataStream<CommittableMessage<C>> committed, String uid);
}
