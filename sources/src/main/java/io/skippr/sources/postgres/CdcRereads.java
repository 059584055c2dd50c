package io.skippr.sources.postgres;

import io.skippr.sources.postgres.cdc.Change;
import io.skippr.sources.postgres.cdc.ChangeColumn;
import io.skippr.sources.postgres.cdc.ColumnValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The parts of a snapshot read again after a restore: a continuous run restored in the middle of a
 * snapshot read its unfinished splits (the rest of one read in part) in the exported snapshot of a
 * temporary slot made then, at a later point. The rows of such a part carry that point; the stream
 * drops the changes of its keys that commit at or before it (they are in those rows) and delivers
 * the later ones. The rest of the table keeps every change after its first point.
 *
 * @param parts every part read again, of every restore; a key in several (a part read in part, then
 *     its rest again) takes the highest point
 */
record CdcRereads(List<Part> parts) {
    static final CdcRereads NONE = new CdcRereads(List.of());

    CdcRereads {
        parts = List.copyOf(parts);
    }

    /**
     * A key range read again at {@code point}: the integer key from {@code keyFrom} (inclusive) to
     * {@code keyTo} (exclusive), null for no bound, and after the resume key {@code after} in the
     * table's key order ({@link RowOrder}), null for none.
     */
    record Part(String stream, Long keyFrom, Long keyTo, List<String> after, long point) {
        Part {
            after = after == null ? null : List.copyOf(after);
        }
    }

    /**
     * These and what {@code split} reads from its progress on, at {@code point}; these alone for a
     * table without a key read in part, whose rows' addresses a change does not tell (its changes
     * up to {@code point} all pass).
     */
    CdcRereads plus(PostgresSplit split, long point) {
        TableInfo table = split.table();
        if (split.lastKey() != null && table.primaryKey().isEmpty()) {
            return this;
        }
        List<Part> all = new ArrayList<>(parts);
        all.add(new Part(table.stream(), split.keyFrom(), split.keyTo(), split.lastKey(), point));
        return new CdcRereads(all);
    }

    /**
     * Whether {@code change} of {@code table}, committed at {@code commitLsn}, is in the rows of a
     * part read again at or after it: its key lies in a part whose point is not below {@code
     * commitLsn}. Integer keys are compared here; a resume key of any other type is compared by the
     * server ({@code order}), with the table's collations.
     */
    boolean covers(TableInfo table, Change change, long commitLsn, ServerKeyOrder order)
            throws IOException {
        List<String> key = null;
        for (Part part : parts) {
            if (part.point() < commitLsn || !part.stream().equals(table.stream())) {
                continue;
            }
            if (table.primaryKey().isEmpty()) {
                return true; // the whole table (a part read in part is not kept)
            }
            if (key == null) {
                key = keyText(table, change);
            }
            if (contains(table, part, key, order)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(
            TableInfo table, Part part, List<String> key, ServerKeyOrder order) throws IOException {
        if (table.hasIntegerKey()) {
            long k = Long.parseLong(key.get(0));
            return (part.keyFrom() == null || k >= part.keyFrom())
                    && (part.keyTo() == null || k < part.keyTo())
                    && (part.after() == null || k > Long.parseLong(part.after().get(0)));
        }
        // a key of another type is one split: no integer bounds
        return part.after() == null || order.after(table, key, part.after());
    }

    /** The change's key values as PostgreSQL text, in the order of the table's primary key. */
    static List<String> keyText(TableInfo table, Change change) {
        List<ColumnValue> values =
                change.op() == Change.Op.DELETE ? change.oldValues() : change.newValues();
        List<ChangeColumn> columns = change.columns();
        List<String> key = new ArrayList<>(table.primaryKey().size());
        for (String name : table.primaryKey()) {
            int at = -1;
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equals(name)) {
                    at = i;
                }
            }
            ColumnValue value = at < 0 || values.isEmpty() ? null : values.get(at);
            if (value != null && value.isUnchanged() && !change.oldValues().isEmpty()) {
                value = change.oldValues().get(at); // a TOASTed key value the update kept
            }
            if (value == null || value.text() == null) {
                throw new IllegalStateException(
                        "a change of "
                                + table.qualifiedName()
                                + " carries no value of its key column "
                                + Sql.show(name));
            }
            key.add(value.text());
        }
        return key;
    }

    void write(DataOutputView out) throws IOException {
        out.writeInt(parts.size());
        for (Part part : parts) {
            out.writeUTF(part.stream());
            PostgresSerde.writeNullableLong(part.keyFrom(), out);
            PostgresSerde.writeNullableLong(part.keyTo(), out);
            out.writeBoolean(part.after() != null);
            if (part.after() != null) {
                PostgresSerde.writeStrings(part.after(), out);
            }
            out.writeLong(part.point());
        }
    }

    static CdcRereads read(DataInputView in) throws IOException {
        int n = in.readInt();
        List<Part> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String stream = in.readUTF();
            Long from = PostgresSerde.readNullableLong(in);
            Long to = PostgresSerde.readNullableLong(in);
            List<String> after = in.readBoolean() ? PostgresSerde.readStrings(in) : null;
            parts.add(new Part(stream, from, to, after, in.readLong()));
        }
        return new CdcRereads(parts);
    }
}
