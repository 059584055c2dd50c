package io.skippr.sinks.bounded;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.StreamExchangeMode;
import org.apache.flink.streaming.runtime.operators.sink.CommitterOperatorFactory;
import org.apache.flink.streaming.runtime.operators.sink.SinkWriterOperatorFactory;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;

/**
 * A sink's operators in a bounded ({@code --once}) run, laid out as Flink's own sink translator
 * lays them out in batch mode (writer, a blocking exchange, the pre-commit topology, the
 * committers, which commit at the end of their input), with two things that translator has no place
 * for:
 *
 * <ul>
 *   <li>a gate ({@link CommitGate}) before the committers that holds the committables until another
 *       sink's commit stream ended: the data sink commits after its deadletter sink;
 *   <li>a commit stream: one token, sent once every committer (or the sink's own {@link
 *       BoundedCommit}) committed. A sink that commits as it writes sends it once its writers
 *       finished.
 * </ul>
 *
 * <p>Batch mode has no checkpoints: a task that fails is run again from its blocking input, so the
 * gate and the committers keep no state; committing twice is harmless (every committer is
 * idempotent). Continuous runs use {@code sinkTo}, whose uids savepoints know.
 */
public final class BoundedSinkTopology {
    private BoundedSinkTopology() {}

    /**
     * Adds {@code sink} for {@code input}: in a bounded run as {@link #add} does, in a continuous
     * run with {@code sinkTo} (whose uids savepoints know).
     *
     * @return the sink's commit stream in a bounded run; null in a continuous one
     */
    public static <T> DataStream<Long> addTo(
            DataStream<T> input,
            Sink<T> sink,
            String uid,
            DataStream<Long> commitAfter,
            boolean bounded) {
        if (bounded) {
            return add(input, sink, uid, commitAfter);
        }
        input.sinkTo(sink).uid(uid).name(uid);
        return null;
    }

    /**
     * Adds {@code sink} for {@code input}; the writer's uid is {@code uid}, the other operators'
     * start with it.
     *
     * @param commitAfter a commit stream the sink's committers wait for, or null
     * @return the sink's commit stream
     */
    public static <T> DataStream<Long> add(
            DataStream<T> input, Sink<T> sink, String uid, DataStream<Long> commitAfter) {
        if (sink instanceof SupportsCommitter<?> committing) {
            return committing(input, sink, committing, uid, commitAfter);
        }
        // commits as it writes: nothing to hold back, and its writers' end is its commit
        DataStream<CommittableMessage<Void>> written =
                input.transform(
                                uid,
                                CommittableMessageTypeInfo.noOutput(),
                                new SinkWriterOperatorFactory<T, Void>(sink))
                        .uid(uid)
                        .name(uid);
        return done(written, uid);
    }

    @SuppressWarnings("unchecked")
    private static <T, C, W> DataStream<Long> committing(
            DataStream<T> input,
            Sink<T> sink,
            SupportsCommitter<C> committing,
            String uid,
            DataStream<Long> commitAfter) {
        TypeInformation<CommittableMessage<C>> type =
                CommittableMessageTypeInfo.of(committing::getCommittableSerializer);
        DataStream<CommittableMessage<C>> precommitted;
        if (sink instanceof SupportsPreCommitTopology<?, ?> pre) {
            SupportsPreCommitTopology<W, C> topology = (SupportsPreCommitTopology<W, C>) pre;
            DataStream<CommittableMessage<W>> written =
                    input.transform(
                                    uid,
                                    CommittableMessageTypeInfo.of(
                                            topology::getWriteResultSerializer),
                                    new SinkWriterOperatorFactory<T, W>(sink))
                            .uid(uid)
                            .name(uid);
            precommitted = topology.addPreCommitTopology(blocking(written));
        } else {
            precommitted =
                    blocking(
                            input.transform(uid, type, new SinkWriterOperatorFactory<T, C>(sink))
                                    .uid(uid)
                                    .name(uid));
        }
        DataStream<CommittableMessage<C>> gated = precommitted;
        if (commitAfter != null) {
            gated =
                    precommitted
                            .connect(commitAfter.broadcast())
                            .transform(
                                    uid + "/gate",
                                    type,
                                    new CommitGate<C>("the commit stream " + uid + " waits for"))
                            .uid(uid + "/gate")
                            .name(uid + "/gate");
        }
        DataStream<CommittableMessage<C>> committed =
                gated.transform(
                                uid + "/committer",
                                type,
                                new CommitterOperatorFactory<>(committing, true, false))
                        .uid(uid + "/committer")
                        .name(uid + "/committer");
        if (sink instanceof BoundedCommit<?> bounded) {
            return ((BoundedCommit<C>) bounded).addBoundedCommit(blocking(committed), uid);
        }
        return done(committed, uid);
    }

    private static <X> DataStream<Long> done(DataStream<X> ended, String uid) {
        return ended.global()
                .transform(uid + "/committed", Types.LONG, new CommitDone<X>())
                .uid(uid + "/committed")
                .name(uid + "/committed")
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    /** A forward exchange that materializes its input first, as Flink puts after a writer. */
    private static <X> DataStream<X> blocking(DataStream<X> input) {
        return new DataStream<>(
                input.getExecutionEnvironment(),
                new PartitionTransformation<>(
                        input.getTransformation(),
                        new ForwardPartitioner<>(),
                        StreamExchangeMode.BATCH));
    }
}
