package io.skippr.sources.postgres.cdc;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns {@code pgoutput} messages, in stream order, into whole {@link Transaction}s: it keeps the
 * relations the stream described and the changes of the open transaction until its commit. pgoutput
 * protocol 1 sends each transaction whole at its commit, so transactions come out in commit order.
 * The open transaction is held in memory (bounding it is future work).
 */
final class TransactionAssembler {
    private static final long PG_EPOCH_MICROS = 946_684_800_000_000L;

    private final Map<Integer, RelationInfo> relations = new HashMap<>();
    private final TypeLookup types;
    private PgOutputMessage.Begin begin;
    private List<Change> changes;

    /** Types columns by {@code types}. */
    TransactionAssembler(TypeLookup types) {
        this.types = types;
    }

    /** Types built-in types by their oid, any other as STRING (for tests without a server). */
    TransactionAssembler() {
        this((oid, typmod) -> BuiltinTypes.of(oid, typmod));
    }

    /**
     * Takes the message at {@code lsn}; returns the transaction it completes, or null.
     *
     * @throws IllegalStateException for a change outside a transaction or of an unknown relation
     */
    Transaction accept(long lsn, PgOutputMessage message) throws SQLException {
        if (message instanceof PgOutputMessage.Begin b) {
            begin = b;
            changes = new ArrayList<>();
        } else if (message instanceof PgOutputMessage.Commit c) {
            requireOpen(c);
            Transaction done =
                    new Transaction(
                            begin.xid(),
                            c.commitLsn(),
                            c.endLsn(),
                            instant(c.commitTimeMicros()),
                            List.copyOf(changes));
            begin = null;
            changes = null;
            return done;
        } else if (message instanceof PgOutputMessage.Relation r) {
            relations.put(r.oid(), RelationInfo.of(r, types));
        } else if (message instanceof PgOutputMessage.Insert i) {
            add(lsn, Change.Op.INSERT, i.relationOid(), i.newTuple(), null, false, i);
        } else if (message instanceof PgOutputMessage.Update u) {
            add(
                    lsn,
                    Change.Op.UPDATE,
                    u.relationOid(),
                    u.newTuple(),
                    u.oldTuple(),
                    u.oldIsKey(),
                    u);
        } else if (message instanceof PgOutputMessage.Delete d) {
            add(lsn, Change.Op.DELETE, d.relationOid(), null, d.oldTuple(), d.oldIsKey(), d);
        } else if (message instanceof PgOutputMessage.Truncate t) {
            for (int oid : t.relationOids()) {
                add(lsn, Change.Op.TRUNCATE, oid, null, null, false, t);
            }
        }
        // Type: non-built-in types are read as their text (BuiltinTypes); Origin and Message
        // carry nothing a change needs
        return null;
    }

    /** True between transactions: no Begin without its Commit yet. */
    boolean idle() {
        return begin == null;
    }

    private void add(
            long lsn,
            Change.Op op,
            int oid,
            PgOutputMessage.Tuple newTuple,
            PgOutputMessage.Tuple oldTuple,
            boolean oldIsKey,
            PgOutputMessage message) {
        requireOpen(message);
        RelationInfo relation = relations.get(oid);
        if (relation == null) {
            throw new IllegalStateException(
                    "change of relation " + oid + " before its Relation message: " + message);
        }
        changes.add(
                new Change(
                        op,
                        relation.schema(),
                        relation.table(),
                        relation.columns(),
                        values(relation, newTuple),
                        values(relation, oldTuple),
                        oldIsKey,
                        lsn,
                        begin.finalLsn(),
                        begin.xid(),
                        instant(begin.commitTimeMicros())));
    }

    private void requireOpen(PgOutputMessage message) {
        if (begin == null) {
            throw new IllegalStateException("message outside a transaction: " + message);
        }
    }

    private static List<ColumnValue> values(RelationInfo relation, PgOutputMessage.Tuple tuple) {
        if (tuple == null) {
            return List.of();
        }
        List<ChangeColumn> columns = relation.columns();
        if (tuple.cells().size() != columns.size()) {
            throw new IllegalStateException(
                    "a row of "
                            + relation.schema()
                            + "."
                            + relation.table()
                            + " has "
                            + tuple.cells().size()
                            + " values for "
                            + columns.size()
                            + " columns");
        }
        List<ColumnValue> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            values.add(value(columns.get(i), tuple.cells().get(i)));
        }
        return values;
    }

    private static ColumnValue value(ChangeColumn column, PgOutputMessage.Cell cell) {
        return switch (cell.kind()) {
            case 'n' -> ColumnValue.NULL;
            case 'u' -> ColumnValue.UNCHANGED;
            case 't' -> {
                String text = new String(cell.bytes(), StandardCharsets.UTF_8);
                try {
                    Object value = PgText.parse(column.type().kind(), text);
                    yield new ColumnValue(ColumnValue.State.PRESENT, text, value, null);
                } catch (PgText.Unrepresentable e) {
                    yield new ColumnValue(ColumnValue.State.PRESENT, text, null, e.getMessage());
                }
            }
            default ->
                    throw new IllegalStateException(
                            "binary value of column "
                                    + column.name()
                                    + ": the stream must be started with binary = false");
        };
    }

    static Instant instant(long pgMicros) {
        long micros = pgMicros + PG_EPOCH_MICROS;
        return Instant.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }

    /** A relation as the stream described it. */
    private record RelationInfo(String schema, String table, List<ChangeColumn> columns) {
        static RelationInfo of(PgOutputMessage.Relation r, TypeLookup types) throws SQLException {
            List<ChangeColumn> columns = new ArrayList<>(r.columns().size());
            for (PgOutputMessage.Column c : r.columns()) {
                columns.add(
                        new ChangeColumn(
                                c.name(),
                                c.key(),
                                c.typeOid(),
                                c.typmod(),
                                types.type(c.typeOid(), c.typmod())));
            }
            return new RelationInfo(r.schema(), r.table(), List.copyOf(columns));
        }
    }
}
