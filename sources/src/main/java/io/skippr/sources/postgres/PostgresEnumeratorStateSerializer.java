package io.skippr.sources.postgres;

import io.skippr.core.serde.ValueCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** The enumerator's checkpoint; bump {@link #VERSION} when the encoding changes. */
public final class PostgresEnumeratorStateSerializer
        implements SimpleVersionedSerializer<PostgresEnumeratorState> {
    public static final int VERSION = 4;

    public static final PostgresEnumeratorStateSerializer INSTANCE =
            new PostgresEnumeratorStateSerializer();

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(PostgresEnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(1024);
        out.writeBoolean(state.discovered());
        out.writeLong(state.nextSplitNumber());
        out.writeInt(state.tables().size());
        for (TableInfo table : state.tables()) {
            PostgresSerde.writeTable(table, out);
        }
        out.writeInt(state.upper().size());
        for (Map.Entry<String, String> e : state.upper().entrySet()) {
            ValueCodec.writeString(e.getKey(), out);
            ValueCodec.writeNullableString(e.getValue(), out);
        }
        out.writeInt(state.pending().size());
        for (PostgresSplit split : state.pending()) {
            PostgresSerde.writeSplit(split, out);
        }
        out.writeInt(state.late().size());
        for (Map.Entry<String, List<String>> e : state.late().entrySet()) {
            ValueCodec.writeString(e.getKey(), out);
            PostgresSerde.writeStrings(e.getValue(), out);
        }
        PostgresSerde.writeStrings(state.outstanding(), out);
        return out.getCopyOfBuffer();
    }

    @Override
    public PostgresEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "Cannot read a Postgres source enumerator checkpoint written with serializer"
                            + " version "
                            + version
                            + ": this version of Skippr reads versions 1 to "
                            + VERSION);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        boolean discovered = in.readBoolean();
        long next = in.readLong();
        int n = in.readInt();
        List<TableInfo> tables = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tables.add(PostgresSerde.readTable(in));
        }
        int u = in.readInt();
        Map<String, String> upper = new LinkedHashMap<>();
        for (int i = 0; i < u; i++) {
            upper.put(ValueCodec.readString(in), ValueCodec.readNullableString(in));
        }
        int p = in.readInt();
        List<PostgresSplit> pending = new ArrayList<>(p);
        for (int i = 0; i < p; i++) {
            pending.add(PostgresSerde.readSplit(in, version));
        }
        Map<String, List<String>> late = new LinkedHashMap<>();
        List<String> outstanding = List.of();
        if (version >= 2) {
            for (int l = in.readInt(); l > 0; l--) {
                late.put(ValueCodec.readString(in), PostgresSerde.readStrings(in));
            }
            outstanding = PostgresSerde.readStrings(in);
        }
        if (in.available() != 0) {
            throw new IOException(
                    "Postgres source enumerator checkpoint has " + in.available() + " extra bytes");
        }
        return new PostgresEnumeratorState(
                discovered, tables, upper, pending, next, late, outstanding);
    }
}
