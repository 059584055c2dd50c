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

/**
 * Versioned serializer of {@link IcebergWriteResult}s. Version 2 adds the equality delete files of
 * write_mode merge; version 1 (without them) is still read, so a checkpoint taken before stays
 * restorable.
 */
public final class IcebergWriteResultSerializer
        implements SimpleVersionedSerializer<IcebergWriteResult> {
    static final int VERSION = 2;

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
            return read(in, version);
        }
    }

    static void check(String what, int version) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "cannot read "
                            + what
                            + " of version "
                            + version
                            + "; this Skippr reads versions 1 to "
                            + VERSION);
        }
    }

    static void write(DataOutputStream out, IcebergWriteResult r) throws IOException {
        out.writeByte(r.kind().ordinal());
        out.writeInt(r.subtask());
        out.writeInt(r.parallelism());
        writeText(out, r.stream());
        writeText(out, r.table());
        writeTexts(out, r.dataFiles());
        out.writeLong(r.rows());
        writeNullable(out, r.cursor());
        writeNullable(out, r.cursorType());
        writeTexts(out, r.deleteFiles());
    }

    static IcebergWriteResult read(DataInputStream in, int version) throws IOException {
        IcebergWriteResult.Kind kind = IcebergWriteResult.Kind.values()[in.readByte()];
        int subtask = in.readInt();
        int parallelism = in.readInt();
        String stream = readText(in);
        String table = readText(in);
        List<String> files = readTexts(in);
        long rows = in.readLong();
        String cursor = readNullable(in);
        String cursorType = readNullable(in);
        return new IcebergWriteResult(
                kind,
                subtask,
                parallelism,
                stream,
                table,
                files,
                rows,
                cursor,
                cursorType,
                version >= 2 ? readTexts(in) : List.of());
    }

    private static void writeTexts(DataOutputStream out, List<String> texts) throws IOException {
        out.writeInt(texts.size());
        for (String text : texts) {
            writeText(out, text);
        }
    }

    private static List<String> readTexts(DataInputStream in) throws IOException {
        int n = in.readInt();
        List<String> texts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            texts.add(readText(in));
        }
        return texts;
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
