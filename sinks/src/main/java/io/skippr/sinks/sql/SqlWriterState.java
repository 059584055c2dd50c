package io.skippr.sinks.sql;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A writer's checkpointed state: which staging tables it had handed on when the checkpoint was
 * taken. Staging tables of the same (run, subtask, epoch) numbered {@code nextSeq} or above were
 * made after the checkpoint: no checkpoint holds them, and a restore drops them.
 */
public record SqlWriterState(long run, int subtask, long epoch, long nextSeq) {

    /** Versioned serializer of {@link SqlWriterState}. */
    public static final class Serializer implements SimpleVersionedSerializer<SqlWriterState> {
        static final int VERSION = 1;

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(SqlWriterState s) {
            return ByteBuffer.allocate(28)
                    .putLong(s.run())
                    .putInt(s.subtask())
                    .putLong(s.epoch())
                    .putLong(s.nextSeq())
                    .array();
        }

        @Override
        public SqlWriterState deserialize(int version, byte[] bytes) throws IOException {
            if (version != VERSION) {
                throw new IOException(
                        "cannot read a SQL sink writer state of version "
                                + version
                                + "; this Skippr reads version "
                                + VERSION);
            }
            ByteBuffer b = ByteBuffer.wrap(bytes);
            return new SqlWriterState(b.getLong(), b.getInt(), b.getLong(), b.getLong());
        }
    }
}
