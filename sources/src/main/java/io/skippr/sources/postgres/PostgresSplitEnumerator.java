package io.skippr.sources.postgres;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator on the JobManager. At a first start it discovers the tables and plans the snapshot
 * (on the coordinator's worker thread); it hands splits to readers as they ask. Bounded, it tells a
 * reader there are no more splits once all are handed out. Continuous with a cursor column, it
 * polls every {@link PostgresSourceConfig#pollIntervalMillis()} for cursor values above the last
 * ones and makes a split per table that grew; continuous without a cursor column, it reads the
 * snapshot once and then idles.
 */
final class PostgresSplitEnumerator
        implements SplitEnumerator<PostgresSplit, PostgresEnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresSplitEnumerator.class);

    private final SplitEnumeratorContext<PostgresSplit> context;
    private final PostgresSourceConfig config;

    private boolean discovered;
    private List<TableInfo> tables;
    private final Map<String, String> upper;
    private final Deque<PostgresSplit> pending;
    private long nextSplitNumber;

    /** Per stream, earlier reads whose rows of transactions then in progress are to be read. */
    private final Map<String, List<String>> late = new LinkedHashMap<>();

    private final Set<String> outstanding = new java.util.HashSet<>();

    private final Set<Integer> waiting = new LinkedHashSet<>();
    private SplitPlanner.Poller poller;
    private final io.skippr.sources.SourceLag lag;

    PostgresSplitEnumerator(
            SplitEnumeratorContext<PostgresSplit> context,
            PostgresSourceConfig config,
            PostgresEnumeratorState state) {
        this.context = context;
        this.config = config;
        this.discovered = state.discovered();
        this.tables = state.tables();
        this.upper = new LinkedHashMap<>(state.upper());
        this.pending = new ArrayDeque<>(state.pending());
        this.nextSplitNumber = state.nextSplitNumber();
        state.late().forEach((stream, reads) -> late.put(stream, new ArrayList<>(reads)));
        this.outstanding.addAll(state.outstanding());
        this.lag = new io.skippr.sources.SourceLag(context.metricGroup());
        if (tables != null) {
            tables.forEach(table -> lag.show(table.stream()));
        }
        outstanding.forEach(id -> lag.found(streamOf(id), id));
    }

    /** The stream of a split id, {@code <stream>#<number>}. */
    private static String streamOf(String splitId) {
        return splitId.substring(0, splitId.lastIndexOf('#'));
    }

    @Override
    public void start() {
        if (discovered) {
            LOG.info("Restored with {} pending splits", pending.size());
            startPolling();
            return;
        }
        int parallelism = context.currentParallelism();
        context.callAsync(() -> SplitPlanner.discover(config, parallelism), this::onDiscovered);
    }

    private void onDiscovered(SplitPlanner.Plan plan, Throwable error) {
        if (error != null) {
            throw asRuntime(error);
        }
        tables = plan.tables();
        tables.forEach(table -> lag.show(table.stream()));
        upper.putAll(plan.upper());
        addPending(plan.splits());
        discovered = true;
        LOG.info(
                "Discovered {} tables of schema {}: {} snapshot splits",
                tables.size(),
                Sql.show(config.schema()),
                plan.splits().size());
        assignPending();
        startPolling();
    }

    private void startPolling() {
        if (config.bounded() || config.cursorColumn() == null || tables.isEmpty()) {
            return;
        }
        poller = new SplitPlanner.Poller(config.connection(), tables, upper);
        context.callAsync(
                () -> poller.poll(idle()),
                this::onPolled,
                config.pollIntervalMillis(),
                config.pollIntervalMillis());
    }

    /**
     * Per table that has no split handed out or pending, the earlier reads whose late commits to
     * read: a table is polled only once its last reads finished, so the reads' positions are known
     * and windows are read in order. Called on the coordinator thread; a copy for the poll.
     */
    private synchronized Map<String, List<ReadEntry>> idle() {
        Map<String, List<ReadEntry>> idle = new LinkedHashMap<>();
        for (TableInfo table : tables) {
            String stream = table.stream();
            boolean busy = outstanding.stream().anyMatch(id -> stream.equals(streamOf(id)));
            if (!busy) {
                idle.put(
                        stream,
                        late.getOrDefault(stream, List.of()).stream()
                                .map(ReadEntry::parse)
                                .toList());
            }
        }
        return idle;
    }

    private void onPolled(SplitPlanner.Poller.Result result, Throwable error) {
        if (error != null) {
            throw asRuntime(error);
        }
        if (!result.splits().isEmpty()) {
            LOG.info("New cursor values or late commits in {} tables", result.splits().size());
            upper.putAll(result.upper());
            synchronized (this) {
                for (PostgresSplit split : result.splits()) {
                    if (split.late() != null) { // these reads are read again now
                        List<String> read = split.late().stream().map(ReadEntry::toLine).toList();
                        late.getOrDefault(split.table().stream(), new ArrayList<>())
                                .removeAll(read);
                    }
                }
            }
            addPending(result.splits());
            assignPending();
        }
    }

    private synchronized void addPending(List<PostgresSplit> splits) {
        for (PostgresSplit split : splits) {
            PostgresSplit numbered = split.withId(split.table().table() + "#" + nextSplitNumber++);
            pending.add(numbered);
            outstanding.add(numbered.splitId());
            lag.found(streamOf(numbered.splitId()), numbered.splitId());
        }
    }

    /**
     * A reader finished a split: in a continuous run, its reads whose snapshots saw transactions in
     * progress are kept for the table's next poll. The report is taken once, while its split is
     * outstanding (a reader restarted alone sends again reports this enumerator took), and
     * acknowledged either way.
     */
    @Override
    public synchronized void handleSourceEvent(
            int subtaskId, org.apache.flink.api.connector.source.SourceEvent event) {
        if (!(event instanceof SplitRead read)) {
            return;
        }
        boolean taken = outstanding.remove(read.splitId());
        if (taken) {
            lag.read(streamOf(read.splitId()), read.splitId());
        }
        if (taken
                && !config.bounded() // a bounded run's positions go to the sink with its data
                && read.position() != null) {
            for (String line : io.skippr.core.record.ReadPositions.entries(read.position())) {
                if (ReadEntry.parse(line).open()) {
                    late.computeIfAbsent(read.stream(), s -> new ArrayList<>()).add(line);
                }
            }
        }
        io.skippr.sources.Acknowledgement.send(context, subtaskId, read);
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        waiting.add(subtaskId);
        assignPending();
    }

    private void assignPending() {
        Iterator<Integer> readers = waiting.iterator();
        while (readers.hasNext()) {
            int subtask = readers.next();
            if (!context.registeredReaders().containsKey(subtask)) {
                readers.remove(); // failed since it asked; it asks again when restarted
            } else if (!pending.isEmpty()) {
                context.assignSplit(pending.poll(), subtask);
                readers.remove();
            } else if (discovered && config.bounded()) {
                context.signalNoMoreSplits(subtask);
                readers.remove();
            }
        }
    }

    /**
     * The splits a failed reader held, with the progress of the last checkpoint: what it read of
     * them since is rolled back, though it may have reported a split read (a reader's restart does
     * not reset this enumerator). So each is outstanding again, and the late reads such a report
     * added are dropped: the split read again reports its own.
     */
    @Override
    public synchronized void addSplitsBack(List<PostgresSplit> splits, int subtaskId) {
        // back to the front, in order: they hold the progress of the last checkpoint
        List<PostgresSplit> reversed = new ArrayList<>(splits);
        java.util.Collections.reverse(reversed);
        for (PostgresSplit split : reversed) {
            pending.addFirst(split);
            outstanding.add(split.splitId());
            lag.found(streamOf(split.splitId()), split.splitId());
            List<String> reads = late.get(split.table().stream());
            if (reads != null && split.window() != null) {
                reads.removeIf(line -> sameRead(ReadEntry.parse(line), split));
            }
        }
        assignPending();
    }

    /** Whether {@code read} is the entry of a read of {@code split}'s window and key range. */
    private static boolean sameRead(ReadEntry read, PostgresSplit split) {
        return java.util.Objects.equals(read.upTo(), split.window().upTo())
                && java.util.Objects.equals(read.keyFrom(), split.keyFrom())
                && java.util.Objects.equals(read.keyTo(), split.keyTo());
    }

    @Override
    public void addReader(int subtaskId) {
        // readers ask for splits themselves
    }

    @Override
    public synchronized PostgresEnumeratorState snapshotState(long checkpointId) {
        return new PostgresEnumeratorState(
                discovered,
                tables,
                upper,
                new ArrayList<>(pending),
                nextSplitNumber,
                late,
                new ArrayList<>(outstanding));
    }

    @Override
    public void close() {
        if (poller != null) {
            poller.close();
        }
    }

    private static RuntimeException asRuntime(Throwable error) {
        if (error instanceof RuntimeException r) {
            return r;
        }
        if (error instanceof Error e) {
            throw e;
        }
        return new PostgresSourceException(error.getMessage(), error);
    }
}
