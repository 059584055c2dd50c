package io.skippr.sinks.iceberg;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.CommitMetrics;
import io.skippr.core.spi.FailPoint;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessageTypeInfo;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Exactly-once into Iceberg tables (DESIGN §6, table formats): {@link IcebergWriter}s write data
 * files; at each checkpoint {@link WriteAggregator} gathers them into one committable, and {@link
 * IcebergCommitter} (subtask 0) commits it when the checkpoint completes, one catalog commit per
 * table with the commit id in the snapshot summary. A bounded run commits once, at the end of
 * input, so a run that fails commits nothing and its cursor positions never move without their
 * data. Which catalog is the {@link IcebergCatalogFactory}'s business.
 */
public final class IcebergSink
        implements Sink<SourceRecord>,
                SupportsCommitter<IcebergCommittable>,
                SupportsPreCommitTopology<IcebergWriteResult, IcebergCommittable> {
    private static final long serialVersionUID = 1L;

    private final IcebergSinkSettings settings;
    private final FailPoint failPoint;
    private final String uid;

    /**
     * @param uid the sink operator's uid; the aggregator's is derived from it
     */
    public IcebergSink(IcebergSinkSettings settings, FailPoint failPoint, String uid) {
        this.settings = settings;
        this.failPoint = failPoint;
        this.uid = uid;
    }

    @Override
    public SinkWriter<SourceRecord> createWriter(WriterInitContext context) {
        return new IcebergWriter(
                settings,
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                context.getTaskInfo().getAttemptNumber(),
                job(context.getJobInfo().getJobId().toHexString()),
                context.getRestoredCheckpointId().orElse(0));
    }

    @Override
    public Committer<IcebergCommittable> createCommitter(CommitterInitContext context) {
        return CommitMetrics.around(
                failPoint.around(
                        new IcebergCommitter(
                                settings, job(context.getJobInfo().getJobId().toHexString()))),
                context.metricGroup());
    }

    private static String job(String hex) {
        return hex.substring(0, Math.min(16, hex.length()));
    }

    @Override
    public SimpleVersionedSerializer<IcebergCommittable> getCommittableSerializer() {
        return new IcebergCommittableSerializer();
    }

    @Override
    public SimpleVersionedSerializer<IcebergWriteResult> getWriteResultSerializer() {
        return new IcebergWriteResultSerializer();
    }

    @Override
    public DataStream<CommittableMessage<IcebergCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<IcebergWriteResult>> results) {
        return results.global()
                .transform(
                        uid + "/aggregator",
                        CommittableMessageTypeInfo.of(IcebergCommittableSerializer::new),
                        new WriteAggregator(settings.run()))
                .uid(uid + "/aggregator")
                .setParallelism(1)
                .setMaxParallelism(1)
                .global();
    }
}
