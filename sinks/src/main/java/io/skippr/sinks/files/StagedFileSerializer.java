package io.skippr.sinks.files;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned serializer of {@link StagedFile} committables. */
public final class StagedFileSerializer implements SimpleVersionedSerializer<StagedFile> {
    static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(StagedFile f) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(f.stream());
            out.writeUTF(f.key());
            writeLong(out, f.token());
            out.writeLong(f.rows());
            out.writeLong(f.run());
            out.writeBoolean(f.bounded());
            out.writeInt(f.subtask());
            out.writeInt(f.parallelism());
            writeNullable(out, f.cursor());
            writeNullable(out, f.cursorType());
        }
        return bytes.toByteArray();
    }

    @Override
    public StagedFile deserialize(int version, byte[] serialized) throws IOException {
        if (version == 1) {
            return version1(serialized);
        }
        if (version != VERSION) {
            throw new IOException(
                    "cannot read a staged file committable of version "
                            + version
                            + "; this Skippr reads version "
                            + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            return new StagedFile(
                    in.readUTF(),
                    in.readUTF(),
                    readLong(in),
                    in.readLong(),
                    in.readLong(),
                    in.readBoolean(),
                    in.readInt(),
                    in.readInt(),
                    readNullable(in),
                    readNullable(in));
        }
    }

    /**
     * Version 1, written before file sinks had stores: local temporary and final paths. The final
     * path becomes the key (a local store resolves an absolute key to itself, and the commit log
     * turns it back into one relative to the root) and the temporary path the token.
     */
    private static StagedFile version1(byte[] serialized) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            String stream = in.readUTF();
            String temp = in.readUTF();
            String target = in.readUTF();
            return new StagedFile(
                    stream,
                    target,
                    temp,
                    in.readLong(),
                    in.readLong(),
                    in.readBoolean(),
                    in.readInt(),
                    in.readInt(),
                    readNullable(in),
                    readNullable(in));
        }
    }

    /** A string that may exceed writeUTF's 64 KiB: a store token listing many parts. */
    private static void writeLong(DataOutputStream out, String s) throws IOException {
        byte[] bytes = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    private static String readLong(DataInputStream in) throws IOException {
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
