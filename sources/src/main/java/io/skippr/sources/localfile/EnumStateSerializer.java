package io.skippr.sources.localfile;

import io.skippr.core.record.StreamSchema;
import io.skippr.core.serde.ValueCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Binary form of {@link EnumState} in checkpoints. Version 1: schema (presence flag, then {@link
 * ValueCodec#writeSchema}), known paths, pending splits (as {@link FileSplitSerializer} version 1),
 * discovered flag; version 3 adds, per file, how far it was read (path, {@link FileEntry} line);
 * version 4 the next split number and, per file with a split out, that split's number; version 5
 * writes pending splits as {@link FileSplitSerializer} version 5.
 */
public final class EnumStateSerializer implements SimpleVersionedSerializer<EnumState> {
    public static final EnumStateSerializer INSTANCE = new EnumStateSerializer();

    @Override
    public int getVersion() {
        return FileSplitSerializer.VERSION;
    }

    @Override
    public byte[] serialize(EnumState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeBoolean(state.schema() != null);
        if (state.schema() != null) {
            ValueCodec.writeSchema(state.schema(), out);
        }
        out.writeInt(state.knownPaths().size());
        for (String path : state.knownPaths()) {
            ValueCodec.writeString(path, out);
        }
        out.writeInt(state.pendingSplits().size());
        for (FileSplit split : state.pendingSplits()) {
            FileSplitSerializer.write(split, out);
        }
        out.writeBoolean(state.discovered());
        out.writeInt(state.readTo().size());
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(state.readTo()).entrySet()) {
            ValueCodec.writeString(e.getKey(), out);
            ValueCodec.writeString(e.getValue(), out);
        }
        out.writeLong(state.nextNumber());
        out.writeInt(state.out().size());
        for (Map.Entry<String, Long> e : new java.util.TreeMap<>(state.out()).entrySet()) {
            ValueCodec.writeString(e.getKey(), out);
            out.writeLong(e.getValue());
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public EnumState deserialize(int version, byte[] serialized) throws IOException {
        FileSplitSerializer.checkVersion("LocalFile enumerator state", version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        StreamSchema schema = in.readBoolean() ? ValueCodec.readSchema(in) : null;
        int n = in.readInt();
        List<String> known = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            known.add(ValueCodec.readString(in));
        }
        int m = in.readInt();
        List<FileSplit> pending = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            pending.add(FileSplitSerializer.read(in, version));
        }
        boolean discovered = in.readBoolean();
        Map<String, String> readTo = new java.util.HashMap<>();
        if (version >= 3) {
            for (int r = in.readInt(); r > 0; r--) {
                readTo.put(ValueCodec.readString(in), ValueCodec.readString(in));
            }
        }
        if (version < 4) {
            return new EnumState(schema, known, pending, discovered, readTo);
        }
        long nextNumber = in.readLong();
        Map<String, Long> splitsOut = new java.util.HashMap<>();
        for (int o = in.readInt(); o > 0; o--) {
            splitsOut.put(ValueCodec.readString(in), in.readLong());
        }
        return new EnumState(schema, known, pending, discovered, readTo, nextNumber, splitsOut);
    }
}
