package io.skippr.sources.postgres;

import io.skippr.core.record.DataType;
import io.skippr.core.serde.ValueCodec;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/** The binary encoding of tables and splits shared by the split and enumerator serializers. */
final class PostgresSerde {
    private PostgresSerde() {}

    static void writeTable(TableInfo table, DataOutputView out) throws IOException {
        ValueCodec.writeString(table.schema(), out);
        ValueCodec.writeString(table.table(), out);
        out.writeInt(table.columns().size());
        for (ColumnInfo c : table.columns()) {
            ValueCodec.writeString(c.name(), out);
            ValueCodec.writeString(c.type().kind().name(), out);
            out.writeInt(c.type().precision());
            out.writeInt(c.type().scale());
            out.writeBoolean(c.nullable());
            ValueCodec.writeString(c.pgType(), out);
            ValueCodec.writeString(c.castType(), out);
            out.writeBoolean(c.nativeOrder());
        }
        writeStrings(table.primaryKey(), out);
        ValueCodec.writeNullableString(table.cursorColumn(), out);
    }

    static TableInfo readTable(DataInputView in) throws IOException {
        String schema = ValueCodec.readString(in);
        String table = ValueCodec.readString(in);
        int n = in.readInt();
        List<ColumnInfo> columns = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String name = ValueCodec.readString(in);
            String kindName = ValueCodec.readString(in);
            DataType.Kind kind;
            try {
                kind = DataType.Kind.valueOf(kindName);
            } catch (IllegalArgumentException e) {
                throw new IOException("unknown data type " + kindName + " in a Postgres split");
            }
            DataType type = new DataType(kind, in.readInt(), in.readInt());
            columns.add(
                    new ColumnInfo(
                            name,
                            type,
                            in.readBoolean(),
                            ValueCodec.readString(in),
                            ValueCodec.readString(in),
                            in.readBoolean()));
        }
        List<String> key = readStrings(in);
        return new TableInfo(schema, table, columns, key, ValueCodec.readNullableString(in));
    }

    static void writeSplit(PostgresSplit split, DataOutputView out) throws IOException {
        ValueCodec.writeString(split.splitId(), out);
        writeTable(split.table(), out);
        writeNullableLong(split.keyFrom(), out);
        writeNullableLong(split.keyTo(), out);
        CursorWindow window = split.window();
        out.writeBoolean(window != null);
        if (window != null) {
            ValueCodec.writeNullableString(window.after(), out);
            ValueCodec.writeNullableString(window.upTo(), out);
            out.writeBoolean(window.includeNull());
        }
        out.writeBoolean(split.lastKey() != null);
        if (split.lastKey() != null) {
            writeStrings(split.lastKey(), out);
        }
        out.writeLong(split.rowsEmitted());
        out.writeBoolean(split.late() != null);
        if (split.late() != null) {
            writeStrings(split.late().stream().map(ReadEntry::toLine).toList(), out);
        }
        Unseen unseen = split.unseen();
        out.writeBoolean(unseen != null);
        if (unseen != null) {
            out.writeInt(unseen.xids().size());
            for (long xid : unseen.xids()) {
                out.writeLong(xid);
            }
        }
        XidBand band = unseen == null ? null : unseen.band();
        out.writeBoolean(band != null);
        if (band != null) {
            out.writeLong(band.from());
            writeStrings(band.running(), out);
        }
        List<ReadEntry.Part> parts = unseen == null ? List.of() : unseen.parts();
        writeStrings(parts.stream().map(ReadEntry.Part::toLine).toList(), out);
        out.writeBoolean(split.report() != null);
        if (split.report() != null) {
            ValueCodec.writeNullableString(split.report().position(), out);
        }
    }

    /**
     * @param version the serializer version that wrote it: 1 had no late-commit reads, 2 no reports
     *     of finished splits, 3 no bands nor parts
     */
    static PostgresSplit readSplit(DataInputView in, int version) throws IOException {
        String id = ValueCodec.readString(in);
        TableInfo table = readTable(in);
        Long keyFrom = readNullableLong(in);
        Long keyTo = readNullableLong(in);
        CursorWindow window =
                in.readBoolean()
                        ? new CursorWindow(
                                ValueCodec.readNullableString(in),
                                ValueCodec.readNullableString(in),
                                in.readBoolean())
                        : null;
        List<String> lastKey = in.readBoolean() ? readStrings(in) : null;
        long rows = in.readLong();
        List<ReadEntry> late = null;
        List<Long> xids = null;
        if (version >= 2) {
            if (in.readBoolean()) {
                late = readStrings(in).stream().map(ReadEntry::parse).toList();
            }
            if (in.readBoolean()) {
                xids = new java.util.ArrayList<>();
                for (int n = in.readInt(); n > 0; n--) {
                    xids.add(in.readLong());
                }
            }
        }
        XidBand band = null;
        List<ReadEntry.Part> parts = List.of();
        if (version >= 4) {
            if (in.readBoolean()) {
                band = new XidBand(in.readLong(), readStrings(in));
            }
            parts = readStrings(in).stream().map(ReadEntry.Part::parse).toList();
        }
        SplitRead report = null;
        if (version >= 3 && in.readBoolean()) {
            report = new SplitRead(id, table.stream(), ValueCodec.readNullableString(in));
        }
        Unseen unseen = xids == null ? null : new Unseen(xids, band, parts);
        return new PostgresSplit(
                id, table, keyFrom, keyTo, window, lastKey, rows, late, unseen, report);
    }

    static void writeStrings(List<String> strings, DataOutputView out) throws IOException {
        out.writeInt(strings.size());
        for (String s : strings) {
            ValueCodec.writeString(s, out);
        }
    }

    static List<String> readStrings(DataInputView in) throws IOException {
        int n = in.readInt();
        List<String> strings = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            strings.add(ValueCodec.readString(in));
        }
        return strings;
    }

    static void writeNullableLong(Long value, DataOutputView out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            out.writeLong(value);
        }
    }

    static Long readNullableLong(DataInputView in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }
}
