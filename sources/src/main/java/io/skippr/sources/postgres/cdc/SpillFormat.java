package io.skippr.sources.postgres.cdc;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A spilled change in a transaction's spill file: its operation, the index of its relation (as
 * described when the change arrived) in the transaction's list, its LSN, whether the old tuple is
 * the key, then the new and the old tuple as pgoutput sent them (per cell its kind and, for text,
 * the bytes). Values are parsed when read back, so a spilled change is parsed once, as an in-memory
 * one.
 */
final class SpillFormat {
    private static final int NO_TUPLE = -1;

    private SpillFormat() {}

    static void write(
            DataOutput out,
            Change.Op op,
            int relation,
            long lsn,
            boolean oldIsKey,
            PgOutputMessage.Tuple newTuple,
            PgOutputMessage.Tuple oldTuple)
            throws IOException {
        out.writeByte(op.ordinal());
        out.writeInt(relation);
        out.writeLong(lsn);
        out.writeBoolean(oldIsKey);
        writeTuple(out, newTuple);
        writeTuple(out, oldTuple);
    }

    /** The change {@link #write} wrote, of a transaction's {@code relations}. */
    static Change read(
            DataInput in,
            List<RelationInfo> relations,
            long commitLsn,
            long xid,
            Instant commitTime)
            throws IOException {
        Change.Op op = Change.Op.values()[in.readByte()];
        RelationInfo relation = relations.get(in.readInt());
        long lsn = in.readLong();
        boolean oldIsKey = in.readBoolean();
        List<ColumnValue> newValues = readTuple(in, relation);
        List<ColumnValue> oldValues = readTuple(in, relation);
        return relation.change(op, newValues, oldValues, oldIsKey, lsn, commitLsn, xid, commitTime);
    }

    private static void writeTuple(DataOutput out, PgOutputMessage.Tuple tuple) throws IOException {
        if (tuple == null) {
            out.writeInt(NO_TUPLE);
            return;
        }
        out.writeInt(tuple.cells().size());
        for (PgOutputMessage.Cell cell : tuple.cells()) {
            out.writeByte(cell.kind());
            if (cell.bytes() != null) {
                out.writeInt(cell.bytes().length);
                out.write(cell.bytes());
            }
        }
    }

    private static List<ColumnValue> readTuple(DataInput in, RelationInfo relation)
            throws IOException {
        int count = in.readInt();
        if (count == NO_TUPLE) {
            return List.of();
        }
        List<ColumnValue> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            char kind = (char) in.readByte();
            byte[] bytes = null;
            if (kind == 't') {
                bytes = new byte[in.readInt()];
                in.readFully(bytes);
            }
            values.add(relation.value(i, kind, bytes));
        }
        return values;
    }
}
