package io.skippr.sources.postgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * From a CDC reader as it starts to the enumerator: the snapshot splits of its restored state (none
 * at a first start), with their progress, given back. The enumerator alone knows every part of the
 * snapshot still to read after a restore; it reads them again in the snapshot of a later point
 * ({@link CdcRereads}) once every reader has sent this.
 */
record SnapshotSplitsReturned(byte[] splits) implements SourceEvent {
    private static final long serialVersionUID = 1L;

    static SnapshotSplitsReturned of(List<CdcSplit> splits) {
        DataOutputSerializer out = new DataOutputSerializer(256);
        try {
            out.writeInt(splits.size());
            for (CdcSplit split : splits) {
                CdcSplitSerializer.write(split, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SnapshotSplitsReturned(out.getCopyOfBuffer());
    }

    List<CdcSplit> list() {
        DataInputDeserializer in = new DataInputDeserializer(splits);
        try {
            int n = in.readInt();
            List<CdcSplit> list = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                list.add(CdcSplitSerializer.read(in, CdcSplitSerializer.VERSION));
            }
            return list;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
