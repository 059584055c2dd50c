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
 * {@link ValueCodec#writeSchema}), records read, byte offset; version 2 adds the generation and the
 * carried positions; version 3 the end offset; version 4 the split's number and, for a finished
 * split whose report is kept, the {@link FileEntry} line it reports; version 5 the records to read
 * past ({@link FileSplit#skip}).
 */
public final class FileSplitSerializer implements SimpleVersionedSerializer<FileSplit> {
    public static final FileSplitSerializer INSTANCE = new FileSplitSerializer();

    static final int VERSION = 5;

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
        return read(new DataInputDeserializer(serialized), version);
    }

    static void checkVersion(String what, int version) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "Unknown "
                            + what
                            + " serializer version "
                            + version
                            + "; this Skippr version reads versions 1 to "
                            + VERSION);
        }
    }

    static void write(FileSplit split, DataOutputView out) throws IOException {
        ValueCodec.writeString(split.path(), out);
        ValueCodec.writeString(split.format().name(), out);
        ValueCodec.writeSchema(split.schema(), out);
        out.writeLong(split.recordsRead());
        out.writeLong(split.byteOffset());
        out.writeInt(split.generation());
        out.writeInt(split.carried().size());
        for (String line : split.carried()) {
            ValueCodec.writeString(line, out);
        }
        out.writeLong(split.endOffset());
        out.writeLong(split.number());
        out.writeBoolean(split.report() != null);
        if (split.report() != null) {
            ValueCodec.writeString(split.report().entry(), out);
        }
        out.writeInt(split.skip().size());
        for (long records : split.skip()) {
            out.writeLong(records);
        }
    }

    static FileSplit read(DataInputView in, int version) throws IOException {
        String path = ValueCodec.readString(in);
        String format = ValueCodec.readString(in);
        FileFormat f;
        try {
            f = FileFormat.valueOf(format);
        } catch (IllegalArgumentException e) {
            throw new IOException("Unknown file format " + format + " in a LocalFile split", e);
        }
        var schema = ValueCodec.readSchema(in);
        long records = in.readLong();
        long offset = in.readLong();
        if (version < 2) {
            return new FileSplit(path, f, schema, records, offset);
        }
        int generation = in.readInt();
        java.util.List<String> carried = new java.util.ArrayList<>();
        for (int n = in.readInt(); n > 0; n--) {
            carried.add(ValueCodec.readString(in));
        }
        long end = version < 3 ? -1 : in.readLong();
        if (version < 4) {
            return new FileSplit(path, f, schema, records, offset, generation, carried, end);
        }
        long number = in.readLong();
        FileRead report =
                in.readBoolean() ? new FileRead(path, number, ValueCodec.readString(in)) : null;
        java.util.List<Long> skip = new java.util.ArrayList<>();
        for (int n = version < 5 ? 0 : in.readInt(); n > 0; n--) {
            skip.add(in.readLong());
        }
        return new FileSplit(
                path, f, schema, records, offset, generation, carried, end, number, report, skip);
    }
}
