package io.skippr.core.serde;

import io.skippr.core.record.Deadletter;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Flink serializer of {@link Deadletter}. */
public final class DeadletterSerializer extends TypeSerializerSingleton<Deadletter> {
    private static final long serialVersionUID = 1L;

    public static final DeadletterSerializer INSTANCE = new DeadletterSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Deadletter createInstance() {
        return null;
    }

    @Override
    public Deadletter copy(Deadletter from) {
        return from;
    }

    @Override
    public Deadletter copy(Deadletter from, Deadletter reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Deadletter d, DataOutputView out) throws IOException {
        ValueCodec.writeString(d.pipeline(), out);
        ValueCodec.writeString(d.stream(), out);
        ValueCodec.writeString(d.stage(), out);
        ValueCodec.writeString(d.errorClass(), out);
        ValueCodec.writeNullableString(d.errorMessage(), out);
        out.writeLong(d.failedAtMicros());
        ValueCodec.writeString(d.position(), out);
        ValueCodec.writeString(d.payload(), out);
    }

    @Override
    public Deadletter deserialize(DataInputView in) throws IOException {
        return new Deadletter(
                ValueCodec.readString(in),
                ValueCodec.readString(in),
                ValueCodec.readString(in),
                ValueCodec.readString(in),
                ValueCodec.readNullableString(in),
                in.readLong(),
                ValueCodec.readString(in),
                ValueCodec.readString(in));
    }

    @Override
    public Deadletter deserialize(Deadletter reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public TypeSerializerSnapshot<Deadletter> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot for state compatibility. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Deadletter> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
