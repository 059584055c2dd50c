package io.skippr.sources.postgres;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/** {@link CdcSplit}s in checkpoints and on the wire; bump {@link #VERSION} when this changes. */
final class CdcSplitSerializer implements SimpleVersionedSerializer<CdcSplit> {
    static final int VERSION = 3;
    static final CdcSplitSerializer INSTANCE = new CdcSplitSerializer();

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(CdcSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public CdcSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException("Cannot read a CDC split of serializer version " + version);
        }
        return read(new DataInputDeserializer(serialized), version);
    }

    static void write(CdcSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.splitId());
        out.writeBoolean(split.isSnapshot());
        if (split.isSnapshot()) {
            PostgresSerde.writeSplit(split.snapshot(), out);
            out.writeBoolean(split.snapshotName() != null);
            if (split.snapshotName() != null) {
                out.writeUTF(split.snapshotName());
            }
            out.writeLong(split.consistentPoint());
            return;
        }
        out.writeInt(split.tables().size());
        for (TableInfo table : split.tables()) {
            PostgresSerde.writeTable(table, out);
        }
        out.writeLong(split.resumeLsn());
        out.writeLong(split.partialCommitLsn());
        out.writeLong(split.partialCount());
        out.writeLong(split.committedLsn());
        out.writeLong(split.upTo());
        split.added().write(out);
    }

    static CdcSplit read(DataInputView in, int version) throws IOException {
        String id = in.readUTF();
        if (in.readBoolean()) {
            PostgresSplit snapshot = PostgresSerde.readSplit(in, PostgresSplitSerializer.VERSION);
            String name = in.readBoolean() ? in.readUTF() : null;
            return CdcSplit.snapshot(snapshot, name, in.readLong());
        }
        int n = in.readInt();
        List<TableInfo> tables = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tables.add(PostgresSerde.readTable(in));
        }
        return new CdcSplit(
                id,
                null,
                null,
                0,
                tables,
                in.readLong(),
                in.readLong(),
                in.readLong(),
                in.readLong(),
                in.readLong(),
                version >= 2 ? CdcAddedTables.read(in, version >= 3) : CdcAddedTables.NONE);
    }
}
