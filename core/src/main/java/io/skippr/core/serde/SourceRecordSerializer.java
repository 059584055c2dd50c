package io.skippr.core.serde;

import io.skippr.core.record.Operation;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.Undecodable;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** Flink serializer of {@link SourceRecord}: a tag byte, then the record. No Kryo. */
public final class SourceRecordSerializer extends TypeSerializerSingleton<SourceRecord> {
    private static final long serialVersionUID = 1L;

    public static final SourceRecordSerializer INSTANCE = new SourceRecordSerializer();

    private static final byte SCHEMA = 1;
    private static final byte ROW = 2;
    private static final byte UNDECODABLE = 3;
    private static final byte POSITION = 4;

    @Override
    public boolean isImmutableType() {
        return true; // records are never mutated after creation
    }

    @Override
    public SourceRecord createInstance() {
        return null;
    }

    @Override
    public SourceRecord copy(SourceRecord from) {
        return from;
    }

    @Override
    public SourceRecord copy(SourceRecord from, SourceRecord reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(SourceRecord record, DataOutputView out) throws IOException {
        if (record instanceof Row row) {
            out.writeByte(ROW);
            ValueCodec.writeString(row.stream(), out);
            out.writeLong(row.schemaVersion());
            out.writeByte(row.op().ordinal());
            ValueCodec.writeValues(row.values(), out);
            ValueCodec.writeString(row.position(), out);
            ValueCodec.writeNullableString(row.id(), out);
            out.writeLong(row.syncedAtMicros());
        } else if (record instanceof SchemaChange change) {
            out.writeByte(SCHEMA);
            ValueCodec.writeSchema(change.schema(), out);
        } else if (record instanceof Undecodable u) {
            out.writeByte(UNDECODABLE);
            ValueCodec.writeString(u.stream(), out);
            ValueCodec.writeString(u.payload(), out);
            ValueCodec.writeString(u.error(), out);
            ValueCodec.writeString(u.position(), out);
        } else if (record instanceof ReadPosition p) {
            out.writeByte(POSITION);
            ValueCodec.writeString(p.stream(), out);
            ValueCodec.writeString(p.position(), out);
        }
    }

    @Override
    public SourceRecord deserialize(DataInputView in) throws IOException {
        byte tag = in.readByte();
        return switch (tag) {
            case ROW ->
                    new Row(
                            ValueCodec.readString(in),
                            in.readLong(),
                            Operation.values()[in.readByte()],
                            ValueCodec.readValues(in),
                            ValueCodec.readString(in),
                            ValueCodec.readNullableString(in),
                            in.readLong());
            case SCHEMA -> new SchemaChange(ValueCodec.readSchema(in));
            case UNDECODABLE ->
                    new Undecodable(
                            ValueCodec.readString(in),
                            ValueCodec.readString(in),
                            ValueCodec.readString(in),
                            ValueCodec.readString(in));
            case POSITION -> new ReadPosition(ValueCodec.readString(in), ValueCodec.readString(in));
            default -> throw new IOException("unknown record tag " + tag);
        };
    }

    @Override
    public SourceRecord deserialize(SourceRecord reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public TypeSerializerSnapshot<SourceRecord> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Snapshot for state compatibility; bump the version when the encoding changes. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<SourceRecord> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
