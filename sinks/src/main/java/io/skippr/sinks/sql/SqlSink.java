package io.skippr.sinks.sql;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.CommitMetrics;
import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * Exactly-once into a SQL database (DESIGN §6): {@link SqlStagingWriter} stages rows, {@link
 * SqlCommitter} moves them into the targets with the marker row in one transaction.
 *
 * <p>A continuous run commits per subtask and checkpoint. A bounded run commits everything in one
 * transaction at the end, through {@link SqlRunCommit} (parallelism 1) after the subtask
 * committers, which pass the committables on untouched: a run that fails commits nothing, so its
 * cursor positions never move without their data. {@link SqlRunCommit} says when it committed, so
 * another sink's commit can wait for it ({@link io.skippr.sinks.bounded.BoundedSinkTopology}). (In
 * continuous mode a run commit would not see the final checkpoint's committables at the end of
 * input, so it is not used there.)
 */
public final class SqlSink
        implements Sink<SourceRecord>,
                SupportsWriterState<SourceRecord, SqlWriterState>,
                SupportsCommitter<SqlCommittable>,
                SupportsPostCommitTopology<SqlCommittable>,
                io.skippr.sinks.bounded.BoundedCommit<SqlCommittable> {
    private static final long serialVersionUID = 1L;

    private final SqlSinkSettings settings;
    private final FailPoint failPoint;

    public SqlSink(SqlSinkSettings settings) {
        this(settings, FailPoint.NONE);
    }

    public SqlSink(SqlSinkSettings settings, FailPoint failPoint) {
        this.settings = settings;
        this.failPoint = failPoint;
    }

    @Override
    public SqlStagingWriter createWriter(WriterInitContext context) throws IOException {
        return new SqlStagingWriter(
                settings,
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                java.util.OptionalLong.empty(),
                List.of(),
                failPoint);
    }

    @Override
    public SqlStagingWriter restoreWriter(
            WriterInitContext context, Collection<SqlWriterState> state) throws IOException {
        return new SqlStagingWriter(
                settings,
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                context.getRestoredCheckpointId(),
                state,
                failPoint);
    }

    @Override
    public SimpleVersionedSerializer<SqlWriterState> getWriterStateSerializer() {
        return new SqlWriterState.Serializer();
    }

    @Override
    public Committer<SqlCommittable> createCommitter(CommitterInitContext context) {
        if (settings.bounded()) {
            // commits nothing: a bounded run commits once, at its end (SqlRunCommit)
            return new SqlCommitter(settings, SqlCommitter.Scope.NONE);
        }
        return CommitMetrics.around(
                failPoint.around(new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)),
                context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<SqlCommittable> getCommittableSerializer() {
        return new SqlCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<SqlCommittable>> committables) {
        if (settings.bounded()) {
            runCommit(committables, "sql run commit");
        }
    }

    @Override
    public DataStream<Long> addBoundedCommit(
            DataStream<CommittableMessage<SqlCommittable>> committed, String uid) {
        return runCommit(committed, uid + "/commit").uid(uid + "/commit");
    }

    private org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator<Long> runCommit(
            DataStream<CommittableMessage<SqlCommittable>> committed, String name) {
        return committed
                .global()
                .transform(
                        name,
                        org.apache.flink.api.common.typeinfo.Types.LONG,
                        new SqlRunCommit(settings, failPoint))
                .name(name)
                .setParallelism(1)
                .setMaxParallelism(1);
    }
}
