package io.skippr.sinks.iceberg;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Versioned serializer of {@link IcebergWriteResult}s. */
public final class IcebergWriteResultSerializer
        implements SimpleVersionedSerializer<IcebergWriteResult> {
    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(IcebergWriteResult result) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(out, result);
        }
        return bytes.toByteArray();
    }

    @Override
    public IcebergWriteResult deserialize(int version, byte[] serialized) throws IOException {
        check("an Iceberg write result", version);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            return read(in);
        }
    }

    static void check(String what, int version) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "cannot read "
                            + what
                            + " of version "
                            + version
                            + "; this Skippr reads version "
                            + VERSION);
        }
    }

    static void write(DataOutputStream out, IcebergWriteResult r) throws IOException {
        out.writeByte(r.kind().ordinal());
        out.writeInt(r.subtask());
        out.writeInt(r.parallelism());
        writeText(out, r.stream());
        writeText(out, r.table());
        out.writeInt(r.dataFiles().size());
        for (String file : r.dataFiles()) {
            writeText(out, file);
        }
        out.writeLong(r.rows());
        writeNullable(out, r.cursor());
        writeNullable(out, r.cursorType());
    }

    static IcebergWriteResult read(DataInputStream in) throws IOException {
        IcebergWriteResult.Kind kind = IcebergWriteResult.Kind.values()[in.readByte()];
        int subtask = in.readInt();
        int parallelism = in.readInt();
        String stream = readText(in);
        String table = readText(in);
        int n = in.readInt();
        List<String> files = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            files.add(readText(in));
        }
        return new IcebergWriteResult(
                kind,
                subtask,
                parallelism,
                stream,
                table,
                files,
                in.readLong(),
                readNullable(in),
                readNullable(in));
    }

    /** Length-prefixed UTF-8: a data file's JSON can exceed writeUTF's 64 KB. */
    private static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeText(out, s);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? readText(in) : null;
    }
}
