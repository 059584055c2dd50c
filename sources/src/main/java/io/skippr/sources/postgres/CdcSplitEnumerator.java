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
    }

    record Plan(List<CdcSplit> splits, SlotSnapshot exported) {}

    @Override
    public void start() {
        if (planned) {
            // the exported snapshot ended with the enumerator that held it: splits still to be
            // read see the tables as they are now, and the stream replays every change after
            // the consistent point over them (a merge keeps the newest by _skippr_lsn)
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
            return;
        }
        int parallelism = context.currentParallelism();
        context.callAsync(() -> plan(parallelism), this::onPlanned);
    }

    private Plan plan(int parallelism) throws IOException {
        SplitPlanner.Plan discovered = SplitPlanner.discover(config, parallelism);
        List<TableInfo> tables = discovered.tables();
        CdcSettings cdc = config.cdc();
        long committed = CdcPositions.committed(config.startPositions(), tables, cdc.slot());
        try (Connection c = config.connection().connect()) {
            Slots.ensurePublication(
                    c,
                    cdc.publication(),
                    tables.stream().map(t -> new Slots.TableName(t.schema(), t.table())).toList());
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
                return new Plan(
                        List.of(CdcSplit.stream(tables, committed, committed, upTo(c))), null);
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
            splits.add(CdcSplit.stream(tables, point, 0, upTo(c)));
            return new Plan(splits, snapshot);
        } catch (SQLException e) {
            throw new IOException(
                    "Preparing change data capture on "
                            + config.connection().describe()
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
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
            String id = split.isSnapshot() ? split.splitId() + "@" + n++ : split.splitId();
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
        exported = plan.exported();
        planned = true;
        if (unread.isEmpty()) {
            endSnapshot();
        }
        LOG.info("CDC plan: {} snapshot splits, then the stream", unread.size());
        assign();
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
        if (event instanceof SnapshotSplitRead read && unread.remove(read.splitId())) {
            if (unread.isEmpty()) {
                endSnapshot();
            }
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
        if (planned && unread.isEmpty() && !streamReleased && releaseAfter == 0) {
            releaseAfter = checkpointId;
        }
        return new CdcEnumeratorState(
                planned, new ArrayList<>(pending), new ArrayList<>(unread), streamReleased);
    }

    @Override
    public synchronized void notifyCheckpointComplete(long checkpointId) {
        if (releaseAfter > 0 && checkpointId >= releaseAfter && !streamReleased) {
            LOG.info("Snapshot read and checkpointed: streaming starts");
            streamReleased = true;
            assign();
        }
    }

    @Override
    public void close() {
        endSnapshot();
    }
}
