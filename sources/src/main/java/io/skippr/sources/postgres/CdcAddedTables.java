package io.skippr.sources.postgres;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Tables added to a CDC pipeline after its slot was made: each was snapshotted in the exported
 * snapshot of a temporary slot, whose consistent point the stream starts the table after.
 *
 * @param tables the added tables
 * @param consistentPoints per stream, its snapshot's consistent point: the stream drops the table's
 *     changes that commit at or before it and delivers those after
 * @param held streams whose snapshot was not yet read and checkpointed (continuous runs): the
 *     stream stops at their first change after the consistent point, and commits no position for
 *     them, until the enumerator releases them
 * @param rereads the parts of any table's snapshot read again after a restore, at a later point:
 *     the stream drops their keys' changes up to it
 */
record CdcAddedTables(
        List<TableInfo> tables,
        Map<String, Long> consistentPoints,
        Set<String> held,
        CdcRereads rereads) {
    static final CdcAddedTables NONE =
            new CdcAddedTables(List.of(), Map.of(), Set.of(), CdcRereads.NONE);

    CdcAddedTables {
        tables = List.copyOf(tables);
        consistentPoints = Map.copyOf(consistentPoints);
        held = Set.copyOf(held);
    }

    /** These and {@code more}, snapshotted at {@code point}; held when {@code hold}. */
    CdcAddedTables plus(List<TableInfo> more, long point, boolean hold) {
        List<TableInfo> all = new ArrayList<>(tables);
        Map<String, Long> points = new LinkedHashMap<>(consistentPoints);
        Set<String> stillHeld = new HashSet<>(held);
        for (TableInfo table : more) {
            all.add(table);
            points.put(table.stream(), point);
            if (hold) {
                stillHeld.add(table.stream());
            }
        }
        return new CdcAddedTables(all, points, stillHeld, rereads);
    }

    /** With no table held. */
    CdcAddedTables released() {
        return new CdcAddedTables(tables, consistentPoints, Set.of(), rereads);
    }

    /** With {@code split} read again, from its progress on, at {@code point}. */
    CdcAddedTables reread(PostgresSplit split, long point) {
        return new CdcAddedTables(tables, consistentPoints, held, rereads.plus(split, point));
    }

    /** The consistent point of {@code stream}'s snapshot; 0 for a table of the first snapshot. */
    long consistentPoint(String stream) {
        return consistentPoints.getOrDefault(stream, 0L);
    }

    void write(DataOutputView out) throws IOException {
        out.writeInt(tables.size());
        for (TableInfo table : tables) {
            PostgresSerde.writeTable(table, out);
            out.writeLong(consistentPoint(table.stream()));
            out.writeBoolean(held.contains(table.stream()));
        }
        rereads.write(out);
    }

    /**
     * @param withRereads whether {@link #rereads} follow (not in states written before they were
     *     kept)
     */
    static CdcAddedTables read(DataInputView in, boolean withRereads) throws IOException {
        int n = in.readInt();
        List<TableInfo> tables = new ArrayList<>(n);
        Map<String, Long> points = new LinkedHashMap<>();
        Set<String> held = new HashSet<>();
        for (int i = 0; i < n; i++) {
            TableInfo table = PostgresSerde.readTable(in);
            tables.add(table);
            points.put(table.stream(), in.readLong());
            if (in.readBoolean()) {
                held.add(table.stream());
            }
        }
        return new CdcAddedTables(
                tables, points, held, withRereads ? CdcRereads.read(in) : CdcRereads.NONE);
    }

    byte[] toBytes() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        write(out);
        return out.getCopyOfBuffer();
    }

    static CdcAddedTables fromBytes(byte[] bytes) throws IOException {
        return read(new DataInputDeserializer(bytes), true);
    }
}
