package io.skippr.sources.localfile;

import io.skippr.core.serde.ValueCodec;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Binary form of a {@link FileSplit} in checkpoints. Version 1: path, format name, schema (as
 * {@link ValueCodec#writeSchema}), records read, byte offset.
 */
public final class FileSplitSerializer implements SimpleVersionedSerializer<FileSplit> {
    public static final FileSplitSerializer INSTANCE = new FileSplitSerializer();

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(FileSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public FileSplit deserialize(int version, byte[] serialized) throws IOException {
        checkVersion("LocalFile split", version);
        return read(new DataInputDeserializer(serialized));
    }

    static void checkVersion(String what, int version) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "Unknown "
                            + what
                            + " serializer version "
                            + version
                            + "; this Skippr version reads version "
                            + VERSION);
        }
    }

    static void write(FileSplit split, DataOutputView out) throws IOException {
        ValueCodec.writeString(split.path(), out);
        ValueCodec.writeString(split.format().name(), out);
        ValueCodec.writeSchema(split.schema(), out);
        out.writeLong(split.recordsRead());
        out.writeLong(split.byteOffset());
    }

    static FileSplit read(DataInputView in) throws IOException {
        String path = ValueCodec.readString(in);
        String format = ValueCodec.readString(in);
        FileFormat f;
        try {
            f = FileFormat.valueOf(format);
        } catch (IllegalArgumentException e) {
            throw new IOException("Unknown file format " + format + " in a LocalFile split", e);
        }
        return new FileSplit(path, f, ValueCodec.readSchema(in), in.readLong(), in.readLong());
    }
}
