package io.skippr.sources.postgres.cdc;

import java.io.IOException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns {@code pgoutput} messages, in stream order, into whole {@link Transaction}s: it keeps the
 * relations the stream described and the changes of the open transaction until its commit, in a
 * {@link ChangeBuffer} that holds a bounded number in memory and spills the rest. pgoutput protocol
 * 1 sends each transaction whole at its commit, so transactions come out in commit order.
 */
final class TransactionAssembler implements AutoCloseable {
    private static final long PG_EPOCH_MICROS = 946_684_800_000_000L;

    private final Map<Integer, RelationInfo> relations = new HashMap<>();
    private final TypeLookup types;
    private final SpillSettings spill;
    private PgOutputMessage.Begin begin;
    private ChangeBuffer changes;

    /** Types columns by {@code types}; spills by {@code spill}. */
    TransactionAssembler(TypeLookup types, SpillSettings spill) {
        this.types = types;
        this.spill = spill;
    }

    /** Types built-in types by their oid, any other as STRING (for tests without a server). */
    TransactionAssembler(SpillSettings spill) {
        this((oid, typmod) -> BuiltinTypes.of(oid, typmod), spill);
    }

    /**
     * Takes the message at {@code lsn}; returns the transaction it completes, or null.
     *
     * @throws IllegalStateException for a change outside a transaction or of an unknown relation
     * @throws IOException when a change could not be spilled
     */
    Transaction accept(long lsn, PgOutputMessage message) throws SQLException, IOException {
        if (message instanceof PgOutputMessage.Begin b) {
            close();
            begin = b;
            changes = new ChangeBuffer(spill, b.finalLsn(), b.xid(), instant(b.commitTimeMicros()));
        } else if (message instanceof PgOutputMessage.Commit c) {
            requireOpen(c);
            Transaction done =
                    new Transaction(
                            begin.xid(),
                            c.commitLsn(),
                            c.endLsn(),
                            instant(c.commitTimeMicros()),
                            changes.finish());
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

    /** How many changes of the open transaction are held in memory (0 between transactions). */
    int inMemory() {
        return changes == null ? 0 : changes.inMemory();
    }

    /** Drops the open transaction, if any, and deletes its spill file. */
    @Override
    public void close() throws IOException {
        begin = null;
        if (changes != null) {
            ChangeBuffer open = changes;
            changes = null;
            open.close();
        }
    }

    private void add(
            long lsn,
            Change.Op op,
            int oid,
            PgOutputMessage.Tuple newTuple,
            PgOutputMessage.Tuple oldTuple,
            boolean oldIsKey,
            PgOutputMessage message)
            throws IOException {
        requireOpen(message);
        RelationInfo relation = relations.get(oid);
        if (relation == null) {
            throw new IllegalStateException(
                    "change of relation " + oid + " before its Relation message: " + message);
        }
        changes.add(op, relation, newTuple, oldTuple, oldIsKey, lsn);
    }

    private void requireOpen(PgOutputMessage message) {
        if (begin == null) {
            throw new IllegalStateException("message outside a transaction: " + message);
        }
    }

    static Instant instant(long pgMicros) {
        long micros = pgMicros + PG_EPOCH_MICROS;
        return Instant.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
    }
}
