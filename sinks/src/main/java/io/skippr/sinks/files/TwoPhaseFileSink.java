package io.skippr.sinks.files;

import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.CommitMetrics;
import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import java.util.Collection;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Exactly-once files in a {@link FileStore}: the writer finishes files locally and stages them in
 * the store; when the checkpoint completes (or a bounded run ends), each subtask's committer
 * publishes them and records the commit with its cursor positions. Nothing is visible under a final
 * name before its checkpoint completed.
 */
public final class TwoPhaseFileSink
        implements Sink<SourceRecord>,
                SupportsWriterState<SourceRecord, Long>,
                SupportsCommitter<StagedFile> {
    private static final long serialVersionUID = 1L;

    private final FileSinkSettings settings;
    private final FailPoint failPoint;

    public TwoPhaseFileSink(FileSinkSettings settings) {
        this(settings, FailPoint.NONE);
    }

    public TwoPhaseFileSink(FileSinkSettings settings, FailPoint failPoint) {
        this.settings = settings;
        this.failPoint = failPoint;
    }

    @Override
    public StagingWriter createWriter(WriterInitContext context) {
        return restoreWriter(context, java.util.List.of());
    }

    @Override
    public StagingWriter restoreWriter(WriterInitContext context, Collection<Long> state) {
        long seq = state.stream().mapToLong(Long::longValue).max().orElse(0);
        return new StagingWriter(
                settings,
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getNumberOfParallelSubtasks(),
                context.getTaskInfo().getAttemptNumber(),
                context.getRestoredCheckpointId().orElse(0),
                seq);
    }

    @Override
    public SimpleVersionedSerializer<Long> getWriterStateSerializer() {
        return new SequenceSerializer();
    }

    @Override
    public Committer<StagedFile> createCommitter(CommitterInitContext context) {
        return CommitMetrics.around(
                failPoint.around(
                        new FileCommitter(
                                settings.store(), settings.pipeline(), settings.deadletterRun())),
                context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<StagedFile> getCommittableSerializer() {
        return new StagedFileSerializer();
    }

    /** The writer's file sequence number. */
    static final class SequenceSerializer implements SimpleVersionedSerializer<Long> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(Long seq) {
            return java.nio.ByteBuffer.allocate(8).putLong(seq).array();
        }

        @Override
        public Long deserialize(int version, byte[] bytes) throws IOException {
            if (version != 1) {
                throw new IOException("unknown file sink writer state version " + version);
            }
            return java.nio.ByteBuffer.wrap(bytes).getLong();
        }
    }
}
