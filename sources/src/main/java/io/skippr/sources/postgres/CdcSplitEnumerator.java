package io.skippr.sources.postgres;

import io.skippr.sources.postgres.cdc.SlotSnapshot;
import io.skippr.sources.postgres.cdc.Slots;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDC source's enumerator. At a first start it makes the publication; without committed
 * positions it creates the slot with an exported snapshot and plans the snapshot's key-range
 * splits, holding the snapshot's replication connection open until every snapshot split was read;
 * with committed positions it streams from them without a snapshot. The stream split is handed out
 * in a bounded run at once (the one commit orders snapshot rows below changes by {@code
 * _skippr_lsn}), in a continuous run once a checkpoint completed after the last snapshot split was
 * read, so no change reaches the destination before a snapshot row of the same key.
 *
 * <p>A table of the pipeline the stream does not deliver yet (added to the configuration after the
 * slot was made: no committed position, or not in the restored state) is added to the publication
 * and snapshotted in the exported snapshot of a temporary slot created after that; the stream drops
 * its changes up to the temporary slot's consistent point and delivers those after. The reader
 * streaming the slot asks for the added tables ({@link StreamOpened}) before its first transaction;
 * in a continuous run the added tables stay held (the stream waits at their first later change and
 * commits no position for them) until a checkpoint completed after their snapshot was read, so
 * neither a change lands before a snapshot row of its key nor a committed position skips an
 * unfinished snapshot.
 *
 * <p>A continuous run restored in the middle of a snapshot (the first or an added table's) cannot
 * go on in the exported snapshot: it ended with the enumerator that held it. The enumerator takes
 * back every snapshot split not read to its end, its own and those of the readers' states ({@link
 * SnapshotSplitsReturned}, sent by every reader as it starts), creates a temporary slot and reads
 * those splits, from their progress on, in its exported snapshot: their rows carry its consistent
 * point, and the stream drops the changes of their keys up to it ({@link CdcRereads}). The parts
 * read before the restore keep every change after their own point.
 */
final class CdcSplitEnumerator implements SplitEnumerator<CdcSplit, CdcEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(CdcSplitEnumerator.class);
    static final Duration SLOT_TIMEOUT = Duration.ofSeconds(60);

    private final SplitEnumeratorContext<CdcSplit> context;
    private final PostgresSourceConfig config;
    private boolean planned;
    private final Deque<CdcSplit> pending;
    private final Set<String> unread;
    private boolean streamReleased;
    private final Set<Integer> waiting = new LinkedHashSet<>();
    private SlotSnapshot exported;
    private List<String> streams;
    private CdcAddedTables added;
    private boolean ready; // the tables to add are known: StreamOpened may be answered
    private final Set<Integer> opened = new LinkedHashSet<>(); // readers waiting for the answer

    // restored in the middle of a snapshot: the splits to read again, from the restored state and
    // from each reader, until every reader has returned its own and the later snapshot exists
    private boolean restoring;
    private boolean rereadPlanned;
    private final List<CdcSplit> returned = new ArrayList<>();
    private final Set<Integer> returnedBy = new LinkedHashSet<>();

    /** The checkpoint after which the stream is released; 0 before the snapshot was read. */
    private long releaseAfter;

    CdcSplitEnumerator(
            SplitEnumeratorContext<CdcSplit> context,
            PostgresSourceConfig config,
            CdcEnumeratorState state) {
        this.context = context;
        this.config = config;
        this.planned = state.planned();
        this.pending = new ArrayDeque<>(state.pending());
        this.unread = new LinkedHashSet<>(state.unread());
        this.streamReleased = state.streamReleased();
        this.streams = state.streams();
        this.added = state.added();
    }

    /**
     * What a start prepared.
     *
     * @param splits the splits to hand out, in order
     * @param exported the snapshot to keep until its splits were read; null for none
     * @param streams every stream the slot's stream delivers
     * @param added the tables added after the slot was made
     * @param releaseStream whether the stream split may start at once (no first snapshot)
     */
    record Plan(
            List<CdcSplit> splits,
            SlotSnapshot exported,
            List<String> streams,
            CdcAddedTables added,
            boolean releaseStream) {}

    /** The snapshot of tables added to a running pipeline. */
    private record Addition(List<CdcSplit> splits, SlotSnapshot exported, long point) {}

    @Override
    public void start() {
        if (planned) {
            if (streams != null
                    && (!unread.isEmpty() || pending.stream().anyMatch(CdcSplit::isSnapshot))) {
                // the exported snapshot ended with the enumerator that held it: the splits not read
                // to their end are read again in a later one (finishRestore)
                restoring = true;
                for (Iterator<CdcSplit> splits = pending.iterator(); splits.hasNext(); ) {
                    CdcSplit split = splits.next();
                    if (split.isSnapshot()) {
                        returned.add(split);
                        splits.remove();
                    }
                }
                unread.clear(); // those of the readers come back from them
                int parallelism = context.currentParallelism();
                context.callAsync(() -> addTables(parallelism, true), this::onPlanned);
                return;
            }
            // a state of before tables could be added: splits still to be read see the tables as
            // they are now, and the stream replays every change after the consistent point over
            // them (a merge keeps the newest by _skippr_lsn)
            List<CdcSplit> restored = new ArrayList<>();
            for (CdcSplit split : pending) {
                restored.add(
                        split.isSnapshot()
                                ? CdcSplit.snapshot(split.snapshot(), null, split.consistentPoint())
                                : split);
            }
            pending.clear();
            pending.addAll(restored);
            LOG.info("Restored with {} pending CDC splits", pending.size());
            if (streams == null) { // a state of before tables could be added
                ready = true;
                return;
            }
            int parallelism = context.currentParallelism();
            context.callAsync(() -> addTables(parallelism, false), this::onPlanned);
            return;
        }
        int parallelism = context.currentParallelism();
        context.callAsync(() -> plan(parallelism), this::onPlanned);
    }

    /**
     * On a restore: snapshots the pipeline's tables the restored stream does not deliver, in the
     * exported snapshot of a temporary slot made now, which also reads again, when {@code reread},
     * the splits of an unfinished snapshot.
     */
    private Plan addTables(int parallelism, boolean reread) throws IOException {
        PostgresConnectionConfig connection = config.connection();
        try (Connection c = connection.connect()) {
            List<TableInfo> tables = PostgresTables.discover(c, config);
            List<TableInfo> fresh =
                    tables.stream().filter(t -> !streams.contains(t.stream())).toList();
            if (fresh.isEmpty() && !reread) {
                return new Plan(List.of(), null, streams, added, false);
            }
            if (!fresh.isEmpty()) {
                Slots.ensurePublication(c, config.cdc().publication(), names(tables));
            }
            Addition addition = snapshotAdded(c, fresh, parallelism);
            List<String> all = new ArrayList<>(streams);
            fresh.forEach(t -> all.add(t.stream()));
            return new Plan(
                    addition.splits(),
                    addition.exported(),
                    all,
                    fresh.isEmpty()
                            ? added
                            : added.plus(fresh, addition.point(), !config.bounded()),
                    false);
        } catch (SQLException e) {
            throw preparing(e);
        }
    }

    /**
     * Snapshots {@code fresh}, tables just added to the publication, in the exported snapshot of a
     * temporary slot created after that: its consistent point is exact for the snapshot, and every
     * transaction that commits after it began after the tables were published, so the stream sends
     * their changes. Creating it waits only for the transactions open then.
     */
    private Addition snapshotAdded(Connection c, List<TableInfo> fresh, int parallelism)
            throws IOException, SQLException {
        SlotSnapshot snapshot =
                Slots.createTemporarySlot(
                        config.connection(), temporarySlotName(config.cdc().slot()), SLOT_TIMEOUT);
        long point = snapshot.consistentPoint();
        List<CdcSplit> splits = new ArrayList<>();
        for (TableInfo table : fresh) {
            for (PostgresSplit split :
                    SplitPlanner.snapshotSplits(
                            c, table, null, config.targetRowsPerSplit(), parallelism)) {
                splits.add(
                        CdcSplit.snapshot(
                                split.withId("add" + Long.toHexString(point) + "." + splits.size()),
                                snapshot.snapshotName(),
                                point));
            }
        }
        LOG.info(
                "Temporary slot of {} at {}; tables {} added to its stream: {} snapshot splits",
                config.cdc().slot(),
                CdcRows.lsn(point, 0),
                fresh.stream().map(TableInfo::stream).toList(),
                splits.size());
        return new Addition(splits, snapshot, point);
    }

    /** A slot name of {@code slot}'s for a temporary slot: unique, at most 63 characters. */
    static String temporarySlotName(String slot) {
        String base = slot.length() > 45 ? slot.substring(0, 45) : slot;
        return base + "_add_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);
    }

    private static List<Slots.TableName> names(List<TableInfo> tables) {
        return tables.stream().map(t -> new Slots.TableName(t.schema(), t.table())).toList();
    }

    private IOException preparing(SQLException e) {
        return new IOException(
                "Preparing change data capture on "
                        + config.connection().describe()
                        + " failed: "
                        + e.getMessage(),
                e);
    }

    private Plan plan(int parallelism) throws IOException {
        SplitPlanner.Plan discovered = SplitPlanner.discover(config, parallelism);
        List<TableInfo> tables = discovered.tables();
        CdcSettings cdc = config.cdc();
        List<TableInfo> known =
                tables.stream()
                        .filter(
                                t ->
                                        CdcPositions.highest(
                                                        config.startPositions().get(t.stream()),
                                                        cdc.slot())
                                                > 0)
                        .toList();
        long committed = CdcPositions.committed(config.startPositions(), known, cdc.slot());
        List<String> all = tables.stream().map(TableInfo::stream).toList();
        try (Connection c = config.connection().connect()) {
            Slots.ensurePublication(c, cdc.publication(), names(tables));
            if (committed > 0) {
                if (!slotExists(c, cdc.slot())) {
                    throw new PostgresSourceException(
                            "replication slot "
                                    + cdc.slot()
                                    + " does not exist on "
                                    + config.connection().describe()
                                    + ", but the destination holds changes streamed from it: the"
                                    + " changes since were lost with it. Drop the pipeline's"
                                    + " tables in the destination to load it again from a new"
                                    + " snapshot",
                            null);
                }
                LOG.info("Streaming slot {} from the committed {}", cdc.slot(), committed);
                List<TableInfo> fresh = tables.stream().filter(t -> !known.contains(t)).toList();
                if (fresh.isEmpty()) {
                    return new Plan(
                            List.of(CdcSplit.stream(tables, committed, committed, upTo(c))),
                            null,
                            all,
                            CdcAddedTables.NONE,
                            true);
                }
                // the temporary slot first: a bounded run's end then lies after its point
                Addition addition = snapshotAdded(c, fresh, parallelism);
                List<CdcSplit> splits = new ArrayList<>();
                splits.add(CdcSplit.stream(known, committed, committed, upTo(c, addition.point())));
                splits.addAll(addition.splits());
                return new Plan(
                        splits,
                        addition.exported(),
                        all,
                        CdcAddedTables.NONE.plus(fresh, addition.point(), !config.bounded()),
                        true);
            }
            if (Slots.dropSlot(c, cdc.slot())) {
                LOG.info("Dropped slot {}: no change of it was committed", cdc.slot());
            }
            SlotSnapshot snapshot = Slots.createSlot(config.connection(), cdc.slot(), SLOT_TIMEOUT);
            long point = snapshot.consistentPoint();
            List<CdcSplit> splits = new ArrayList<>();
            for (PostgresSplit split : discovered.splits()) {
                splits.add(CdcSplit.snapshot(split, snapshot.snapshotName(), point));
            }
            splits.add(CdcSplit.stream(tables, point, 0, upTo(c, point)));
            return new Plan(splits, snapshot, all, CdcAddedTables.NONE, false);
        } catch (SQLException e) {
            throw preparing(e);
        }
    }

    /**
     * Where the stream of a bounded run that takes a snapshot ends: at the snapshot's point. The
     * run then holds the source as it was at that point, and no change it streams meets a snapshot
     * row of the same key, which another writer subtask may commit after it (a delete committed
     * before the row it deleted would bring the row back). The marker written after the point tells
     * the stream when it has read every transaction that committed before it.
     */
    private long upTo(Connection c, long snapshotPoint) throws SQLException {
        return upTo(c) < 0 ? -1 : snapshotPoint;
    }

    private long upTo(Connection c) throws SQLException {
        if (!config.bounded()) {
            return -1;
        }
        // a marker in the WAL, which the stream receives after every transaction committed before
        try (Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT (pg_logical_emit_message(false, 'skippr-once', '')"
                                        + " - '0/0'::pg_lsn)::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static boolean slotExists(Connection c, String slot) throws SQLException {
        try (var s = c.prepareStatement("SELECT 1 FROM pg_replication_slots WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    private synchronized void onPlanned(Plan plan, Throwable error) {
        if (error != null) {
            throw error instanceof RuntimeException r
                    ? r
                    : new PostgresSourceException(error.getMessage(), error);
        }
        int n = 0;
        for (CdcSplit split : plan.splits()) {
            String id =
                    split.isSnapshot() && split.splitId().isEmpty()
                            ? split.splitId() + "@" + n++
                            : split.splitId();
            CdcSplit numbered =
                    split.isSnapshot()
                            ? CdcSplit.snapshot(
                                    split.snapshot().withId(id),
                                    split.snapshotName(),
                                    split.consistentPoint())
                            : split;
            pending.add(numbered);
            if (numbered.isSnapshot()) {
                unread.add(numbered.splitId());
            }
        }
        if (plan.exported() != null) {
            endSnapshot();
            exported = plan.exported();
        }
        streams = plan.streams();
        added = plan.added();
        if (plan.releaseStream()) {
            streamReleased = true; // no first snapshot to wait for
        }
        planned = true;
        if (restoring) {
            rereadPlanned = true;
            finishRestoreOnceReturned();
            return;
        }
        ready = true;
        if (unread.isEmpty()) {
            endSnapshot();
        }
        LOG.info("CDC plan: {} snapshot splits, then the stream", unread.size());
        for (int subtask : opened) {
            answer(subtask);
        }
        opened.clear();
        assign();
    }

    /**
     * Once the later snapshot exists and every reader returned its snapshot splits: reads each
     * split returned again, from its progress on, in that snapshot, and tells the stream to drop
     * its keys' changes up to the snapshot's point. A split handed out and not reported read that
     * no reader returned was read to its end before the readers' checkpoint.
     */
    private void finishRestoreOnceReturned() {
        if (!rereadPlanned || returnedBy.size() < context.currentParallelism()) {
            return;
        }
        restoring = false;
        String name = exported.snapshotName();
        long point = exported.consistentPoint();
        List<CdcSplit> again = new ArrayList<>();
        for (CdcSplit split : returned) {
            again.add(CdcSplit.snapshot(split.snapshot(), name, point));
            unread.add(split.splitId());
            added = added.reread(split.snapshot(), point);
        }
        returned.clear();
        Collections.reverse(again);
        again.forEach(pending::addFirst);
        LOG.info(
                "Restored in the middle of the snapshot: {} splits read again at {}",
                again.size(),
                CdcRows.lsn(point, 0));
        ready = true;
        if (unread.isEmpty()) {
            endSnapshot();
        }
        for (int subtask : opened) {
            answer(subtask);
        }
        opened.clear();
        assign();
    }

    /** Tells the reader streaming the slot the added tables, and which are held. */
    private void answer(int subtask) {
        context.sendEventToSourceReader(subtask, CdcTablesEvent.of(added));
    }

    @Override
    public synchronized void handleSplitRequest(int subtaskId, String requesterHostname) {
        waiting.add(subtaskId);
        assign();
    }

    private void assign() {
        Iterator<Integer> readers = waiting.iterator();
        while (readers.hasNext()) {
            int subtask = readers.next();
            if (!context.registeredReaders().containsKey(subtask)) {
                readers.remove();
                continue;
            }
            CdcSplit next = pending.peek();
            if (next != null && (next.isSnapshot() || config.bounded() || streamReleased)) {
                context.assignSplit(pending.poll(), subtask);
                readers.remove();
            } else if (planned && pending.isEmpty() && config.bounded()) {
                context.signalNoMoreSplits(subtask);
                readers.remove();
            }
        }
    }

    @Override
    public synchronized void handleSourceEvent(int subtaskId, SourceEvent event) {
        if (event instanceof StreamOpened) {
            if (ready) {
                answer(subtaskId);
            } else {
                opened.add(subtaskId);
            }
        } else if (event instanceof SnapshotSplitRead read && unread.remove(read.splitId())) {
            if (unread.isEmpty()) {
                endSnapshot();
            }
        } else if (event instanceof SnapshotSplitsReturned back) {
            List<CdcSplit> splits = back.list();
            if (restoring) {
                returned.addAll(splits);
                returnedBy.add(subtaskId);
                finishRestoreOnceReturned();
                return;
            }
            // a reader restarted alone (its enumerator, and the snapshot it holds, live on)
            List<CdcSplit> again = new ArrayList<>(splits);
            again.removeIf(split -> !unread.contains(split.splitId()));
            Collections.reverse(again);
            again.forEach(pending::addFirst);
            assign();
        }
    }

    /** Every snapshot split was read: the exported snapshot may end. */
    private void endSnapshot() {
        if (exported != null) {
            exported.close();
            exported = null;
        }
    }

    @Override
    public synchronized void addSplitsBack(List<CdcSplit> splits, int subtaskId) {
        List<CdcSplit> reversed = new ArrayList<>(splits);
        Collections.reverse(reversed);
        for (CdcSplit split : reversed) {
            if (split.isSnapshot()) {
                pending.addFirst(split);
                unread.add(split.splitId());
            } else {
                pending.addLast(split);
            }
        }
        assign();
    }

    @Override
    public void addReader(int subtaskId) {}

    @Override
    public synchronized CdcEnumeratorState snapshotState(long checkpointId) {
        boolean waiting = !streamReleased || !added.held().isEmpty();
        if (planned && !restoring && unread.isEmpty() && waiting && releaseAfter == 0) {
            releaseAfter = checkpointId;
        }
        List<CdcSplit> toRead = new ArrayList<>(returned); // still to be read again
        toRead.addAll(pending);
        return new CdcEnumeratorState(
                planned,
                toRead,
                new ArrayList<>(unread),
                streamReleased,
                streams == null ? null : new ArrayList<>(streams),
                added);
    }

    @Override
    public synchronized void notifyCheckpointComplete(long checkpointId) {
        if (releaseAfter == 0 || checkpointId < releaseAfter || !unread.isEmpty() || restoring) {
            return;
        }
        releaseAfter = 0;
        if (!streamReleased) {
            LOG.info("Snapshot read and checkpointed: streaming starts");
            streamReleased = true;
            assign();
        }
        if (!added.held().isEmpty()) {
            LOG.info("Snapshot of the added tables {} read and checkpointed", added.held());
            added = added.released();
            for (int subtask : context.registeredReaders().keySet()) {
                answer(subtask);
            }
        }
    }

    @Override
    public void close() {
        endSnapshot();
    }
}
