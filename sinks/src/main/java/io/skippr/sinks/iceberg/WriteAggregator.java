package io.skippr.sinks.iceberg;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Gathers every writer subtask's results of a checkpoint into one {@link IcebergCommittable}, so
 * the committer makes one catalog commit per table per checkpoint (runs with parallelism 1, as
 * Iceberg's own Flink sink does). The writers' results of checkpoint {@code c} all arrive before
 * its barrier; the committable leaves just before the barrier, so it needs no state of its own: the
 * committer downstream keeps it in the checkpoint. A bounded run's results leave at the end of
 * input.
 */
final class WriteAggregator extends AbstractStreamOperator<CommittableMessage<IcebergCommittable>>
        implements OneInputStreamOperator<
                        CommittableMessage<IcebergWriteResult>,
                        CommittableMessage<IcebergCommittable>>,
                BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final long run;
    private final Map<Long, List<IcebergWriteResult>> pending = new TreeMap<>();

    WriteAggregator(long run) {
        this.run = run;
    }

    @Override
    public void processElement(StreamRecord<CommittableMessage<IcebergWriteResult>> element) {
        if (element.getValue() instanceof CommittableWithLineage<IcebergWriteResult> result) {
            pending.computeIfAbsent(result.getCheckpointIdOrEOI(), c -> new ArrayList<>())
                    .add(result.getCommittable());
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        emitUpTo(checkpointId);
    }

    @Override
    public void endInput() {
        emitUpTo(Long.MAX_VALUE);
    }

    private void emitUpTo(long checkpointId) {
        Iterator<Map.Entry<Long, List<IcebergWriteResult>>> it = pending.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, List<IcebergWriteResult>> e = it.next();
            if (e.getKey() > checkpointId) {
                break;
            }
            long checkpoint = e.getKey();
            IcebergCommittable committable = new IcebergCommittable(run, checkpoint, e.getValue());
            output.collect(new StreamRecord<>(new CommittableSummary<>(0, 1, checkpoint, 1, 0)));
            output.collect(
                    new StreamRecord<>(new CommittableWithLineage<>(committable, checkpoint, 0)));
            it.remove();
        }
    }
}
