package io.skippr.sinks.sql;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Versioned serializer of {@link SqlCommittable}s, schema included. Version 2 adds the rows' lowest
 * cursor value and checksum; version 1 is read with none. Version 3 writes what version 2 does; it
 * says the staging names its delete flag {@link SqlNames#DELETE_ROW}, where staging of versions 1
 * and 2 called it {@link SqlNames#DELETE_ROW_BEFORE_V3} ({@link SqlCommittable#stagedBeforeV3}).
 */
public final class SqlCommittableSerializer implements SimpleVersionedSerializer<SqlCommittable> {
    static final int VERSION = 3;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(SqlCommittable c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(c.kind().ordinal());
            out.writeLong(c.run());
            out.writeInt(c.subtask());
            out.writeInt(c.parallelism());
            out.writeLong(c.epoch());
            out.writeLong(c.batch());
            out.writeLong(c.seq());
            writeText(out, c.stream());
            out.writeBoolean(c.schema() != null);
            if (c.schema() != null) {
                writeSchema(out, c.schema());
            }
            writeNullable(out, c.staging());
            out.writeLong(c.rows());
            writeNullable(out, c.cursor());
            writeNullable(out, c.cursorType());
            writeNullable(out, c.minCursor());
            out.writeLong(c.checksum());
        }
        return bytes.toByteArray();
    }

    @Override
    public SqlCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "cannot read a SQL sink committable of version "
                            + version
                            + "; this Skippr reads version "
                            + VERSION
                            + " (and 1, 2)");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            SqlCommittable.Kind kind = SqlCommittable.Kind.values()[in.readByte()];
            long run = in.readLong();
            int subtask = in.readInt();
            int parallelism = in.readInt();
            long epoch = in.readLong();
            long batch = in.readLong();
            long seq = in.readLong();
            String stream = readText(in);
            StreamSchema schema = in.readBoolean() ? readSchema(in) : null;
            String staging = readNullable(in);
            long rows = in.readLong();
            String cursor = readNullable(in);
            String cursorType = readNullable(in);
            String minCursor = version == 1 ? null : readNullable(in);
            long checksum = version == 1 ? 0 : in.readLong();
            return new SqlCommittable(
                    kind,
                    run,
                    subtask,
                    parallelism,
                    epoch,
                    batch,
                    seq,
                    stream,
                    schema,
                    staging,
                    rows,
                    cursor,
                    cursorType,
                    minCursor,
                    checksum,
                    version < 3);
        }
    }

    /** {@code schema} as text (Base64 of its serialized form), for a staging table's comment. */
    public static String schemaText(StreamSchema schema) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeSchema(out, schema);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getEncoder().encodeToString(bytes.toByteArray());
    }

    /** The schema {@link #schemaText} wrote. */
    public static StreamSchema schemaOf(String text) throws IOException {
        try (DataInputStream in =
                new DataInputStream(new ByteArrayInputStream(Base64.getDecoder().decode(text)))) {
            return readSchema(in);
        } catch (IllegalArgumentException e) {
            throw new IOException("not a schema: " + text, e);
        }
    }

    private static void writeSchema(DataOutputStream out, StreamSchema schema) throws IOException {
        writeText(out, schema.stream());
        out.writeInt(schema.columns().size());
        for (Column column : schema.columns()) {
            writeText(out, column.name());
            out.writeByte(column.type().kind().ordinal());
            out.writeInt(column.type().precision());
            out.writeInt(column.type().scale());
            out.writeBoolean(column.nullable());
        }
        out.writeInt(schema.primaryKey().size());
        for (String key : schema.primaryKey()) {
            writeText(out, key);
        }
        writeNullable(out, schema.cursorColumn());
    }

    private static StreamSchema readSchema(DataInputStream in) throws IOException {
        String stream = readText(in);
        int n = in.readInt();
        List<Column> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = readText(in);
            DataType.Kind kind = DataType.Kind.values()[in.readByte()];
            DataType type = new DataType(kind, in.readInt(), in.readInt());
            columns.add(new Column(name, type, in.readBoolean()));
        }
        int k = in.readInt();
        List<String> key = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            key.add(readText(in));
        }
        return new StreamSchema(stream, columns, key, readNullable(in));
    }

    /** Names can exceed writeUTF's 64 KB: length-prefixed UTF-8. */
    private static void writeText(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    private static String readText(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, java.nio.charset.StandardCharsets.UTF_8);
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
