package io.skippr.sources.postgres;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/** Splits in checkpoints and on the wire; bump {@link #VERSION} when the encoding changes. */
public final class PostgresSplitSerializer implements SimpleVersionedSerializer<PostgresSplit> {
    public static final int VERSION = 4;

    public static final PostgresSplitSerializer INSTANCE = new PostgresSplitSerializer();

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(PostgresSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        PostgresSerde.writeSplit(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public PostgresSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "Cannot read a Postgres source split written with serializer version "
                            + version
                            + ": this version of Skippr reads versions 1 to "
                            + VERSION);
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        PostgresSplit split = PostgresSerde.readSplit(in, version);
        if (in.available() != 0) {
            throw new IOException("Postgres source split has " + in.available() + " extra bytes");
        }
        return split;
    }
}
