package io.skippr.sinks.iceberg;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned serializer of {@link IcebergCommittable}s. */
public final class IcebergCommittableSerializer
        implements SimpleVersionedSerializer<IcebergCommittable> {

    @Override
    public int getVersion() {
        return IcebergWriteResultSerializer.VERSION;
    }

    @Override
    public byte[] serialize(IcebergCommittable c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(c.run());
            out.writeLong(c.checkpoint());
            out.writeInt(c.results().size());
            for (IcebergWriteResult result : c.results()) {
                IcebergWriteResultSerializer.write(out, result);
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public IcebergCommittable deserialize(int version, byte[] serialized) throws IOException {
        IcebergWriteResultSerializer.check("an Iceberg committable", version);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            long run = in.readLong();
            long checkpoint = in.readLong();
            int n = in.readInt();
            List<IcebergWriteResult> results = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                results.add(IcebergWriteResultSerializer.read(in, version));
            }
            return new IcebergCommittable(run, checkpoint, results);
        }
    }
}
