package io.skippr.sources.postgres;

import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.sources.StreamBytes;
import io.skippr.sources.postgres.cdc.Change;
import io.skippr.sources.postgres.cdc.ChangeStream;
import io.skippr.sources.postgres.cdc.ReplicationLag;
import io.skippr.sources.postgres.cdc.SlotHealth;
import io.skippr.sources.postgres.cdc.SpillSettings;
import io.skippr.sources.postgres.cdc.Transaction;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.function.SerializableSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CDC source's reader: reads its splits one at a time on the task thread, in bounded steps. A
 * snapshot split goes through {@link PostgresSplitReader} in a transaction that imports the slot's
 * exported snapshot, its rows given {@code _skippr_lsn} of the consistent point. The stream split
 * reads the slot's transactions in commit order, each change a row with its operation; after whole
 * transactions it sends every table's position ({@link CdcPositions}), once per checkpoint, so a
 * checkpoint commits the LSN with the rows it covers.
 *
 * <p>While it streams, the reader also reads snapshot splits of tables added to the pipeline,
 * alternating with the stream. Before the stream's first transaction it waits for the enumerator's
 * {@link CdcTablesEvent}: it drops an added table's changes that commit at or before the table's
 * snapshot point, waits at the first later one while the table is held, and commits no position for
 * a held table.
 *
 * <p>As it starts, the reader gives the snapshot splits of its restored state back to the
 * enumerator ({@link SnapshotSplitsReturned}), which reads them again in a later snapshot; the
 * stream then drops the changes of their keys up to that snapshot's point ({@link CdcRereads}).
 */
final class CdcSourceReader implements SourceReader<SourceRecord, CdcSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(CdcSourceReader.class);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final int BATCH = 1024;

    private final SourceReaderContext context;
    private final PostgresSourceConfig config;
    private final StreamBytes bytes;
    private final Deque<CdcSplit> queue = new ArrayDeque<>();
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean noMoreSplits;

    private CdcSplit current; // the snapshot split being read
    // snapshot split
    private PostgresSplitReader snapshotReader;
    private PostgresSplitState snapshotState;
    private PostgresRecordEmitter emitter;
    // stream split
    private CdcSplit streamSplit;
    private boolean tablesKnown; // the enumerator answered StreamOpened
    private Change stalled; // the first change of a held table after its snapshot point
    private static final long KEEPALIVE_NANOS = 5_000_000_000L;
    private long lastKeepAlive;
    private ChangeStream stream;
    private Map<String, TableInfo> tables;
    private final Map<String, StreamSchema> schemas = new HashMap<>(); // by key of tables
    private final Map<String, Long> announced = new HashMap<>(); // stream -> schema version
    private Transaction transaction;
    private Iterator<Change> changes;
    private long delivered; // changes of the transaction delivered, skipped ones included
    private long resumeLsn;
    private long partialCommitLsn;
    private long partialCount;
    private boolean positionDue = true;
    private boolean upToReached;
    private static final long CONFIRM_NANOS = 1_000_000_000L;
    private long lastConfirm = System.nanoTime() - CONFIRM_NANOS;
    private long positionSent = -1;
    private static final long HEALTH_NANOS = 60_000_000_000L;

    /** One WAL segment of the default size. */
    private static final long IDLE_WAL_STEP = 16L * 1024 * 1024;

    private long lastHealth;
    private volatile long slotRetainedBytes = -1;
    private volatile long slotLagBytes = -1;
    private final ReplicationLag lag = new ReplicationLag();
    private final ServerKeyOrder keyOrder;

    CdcSourceReader(SourceReaderContext context, PostgresSourceConfig config) {
        this.context = context;
        this.config = config;
        this.bytes = new StreamBytes(context.metricGroup());
        this.keyOrder = new ServerKeyOrder(config.connection());
        MetricGroup skippr = context.metricGroup().addGroup("skippr");
        skippr.gauge("slotRetainedBytes", () -> slotRetainedBytes);
        skippr.gauge("slotLagBytes", () -> slotLagBytes);
        skippr.gauge("replicationLagSeconds", lag::seconds);
    }

    @Override
    public void start() {
        // the restored state's snapshot splits: the snapshot they were read in has ended, and only
        // the enumerator knows every part of it still to read (before any checkpoint is taken:
        // this reader is not running yet)
        List<CdcSplit> restored = new ArrayList<>();
        for (Iterator<CdcSplit> splits = queue.iterator(); splits.hasNext(); ) {
            CdcSplit split = splits.next();
            if (split.isSnapshot()) {
                restored.add(split);
                splits.remove();
            }
        }
        context.sendSourceEventToCoordinator(SnapshotSplitsReturned.of(restored));
        if (queue.isEmpty()) {
            context.sendSplitRequest();
        }
    }

    @Override
    public InputStatus pollNext(ReaderOutput<SourceRecord> output) throws Exception {
        if (current == null) {
            current = take(true);
            if (current != null) {
                LOG.info("Reading {}", current);
                snapshotReader =
                        new PostgresSplitReader(config.connection(), false, current.snapshotName());
                snapshotReader.handleSplitsChanges(
                        new SplitsAddition<>(List.of(current.snapshot())));
                snapshotState = new PostgresSplitState(current.snapshot());
                emitter = new PostgresRecordEmitter(bytes);
            }
        }
        if (streamSplit == null) {
            streamSplit = take(false);
            if (streamSplit != null) {
                LOG.info("Reading {}", streamSplit);
                openStream();
                context.sendSplitRequest(); // snapshot splits of added tables, alongside
            }
        }
        if (current == null && streamSplit == null) {
            if (noMoreSplits && queue.isEmpty()) {
                return InputStatus.END_OF_INPUT;
            }
            available = new CompletableFuture<>();
            return InputStatus.NOTHING_AVAILABLE;
        }
        if (current != null) {
            readSnapshot(output);
        }
        if (streamSplit != null) {
            readStream(output);
        }
        return InputStatus.MORE_AVAILABLE;
    }

    /** Removes the first queued snapshot split ({@code snapshot}) or the stream split; or null. */
    private CdcSplit take(boolean snapshot) {
        for (Iterator<CdcSplit> splits = queue.iterator(); splits.hasNext(); ) {
            CdcSplit split = splits.next();
            if (split.isSnapshot() == snapshot) {
                splits.remove();
                return split;
            }
        }
        return null;
    }

    private void readSnapshot(ReaderOutput<SourceRecord> output) throws IOException {
        RecordsWithSplitIds<ReadRecord> batch = snapshotReader.fetch();
        SourceOutput<SourceRecord> cdc =
                new SnapshotOutput(
                        output,
                        current.consistentPoint(),
                        CdcRows.schema(current.snapshot().table()));
        while (batch.nextSplit() != null) {
            ReadRecord record;
            while ((record = batch.nextRecordFromSplit()) != null) {
                emitter.emitRecord(record, cdc, snapshotState);
            }
        }
        if (batch.finishedSplits().contains(current.splitId())) {
            snapshotReader.close();
            context.sendSourceEventToCoordinator(new SnapshotSplitRead(current.splitId()));
            current = null;
            snapshotReader = null;
            context.sendSplitRequest();
        }
        batch.recycle();
    }

    private void openStream() throws IOException {
        tables = new HashMap<>();
        schemas.clear();
        addTables(streamSplit.tables());
        tablesKnown = false;
        stalled = null;
        resumeLsn = streamSplit.resumeLsn();
        partialCommitLsn = streamSplit.partialCommitLsn();
        partialCount = streamSplit.partialCount();
        CdcSettings cdc = config.cdc();
        stream =
                ChangeStream.open(
                        config.connection(),
                        cdc.slot(),
                        cdc.publication(),
                        resumeLsn,
                        Duration.ofSeconds(10),
                        SpillSettings.defaults(),
                        streamSplit.upTo() >= 0);
        long committed =
                Math.max(
                        streamSplit.committedLsn(),
                        CdcPositions.committed(
                                config.startPositions(),
                                streamSplit.positionedTables(),
                                cdc.slot()));
        if (committed > 0) {
            stream.confirm(committed); // the destination holds it: the slot may move there
        }
        checkSlot();
        context.sendSourceEventToCoordinator(new StreamOpened());
    }

    private void addTables(List<TableInfo> more) {
        for (TableInfo table : more) {
            tables.putIfAbsent(table.schema() + "." + table.table(), table);
        }
    }

    /** The enumerator's added tables: they join the stream, and which are held is theirs. */
    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof CdcTablesEvent added && streamSplit != null) {
            streamSplit = streamSplit.withAdded(added.tables());
            addTables(streamSplit.tables());
            tablesKnown = true;
            positionSent = -1; // released tables get their position
            available.complete(null);
        }
    }

    /**
     * Waiting for the enumerator, or at a held table's change: keeps the replication connection
     * alive, and yields the thread unless a snapshot split is being read.
     */
    private void idle() throws IOException {
        if (System.nanoTime() - lastKeepAlive >= KEEPALIVE_NANOS) {
            stream.keepAlive();
            lastKeepAlive = System.nanoTime();
        }
        if (current == null) {
            LockSupport.parkNanos(POLL.toNanos());
        }
    }

    /**
     * Reads what the slot keeps on the server into the reader's gauges and warns when it keeps more
     * WAL than {@code slot_wal_warning_mb} or was invalidated: at the stream's start (the WAL kept
     * while the pipeline was stopped) and at most once a minute while it runs.
     */
    private void checkSlot() {
        lastHealth = System.nanoTime();
        try (Connection c = config.connection().connect()) {
            SlotHealth.read(c, config.cdc().slot())
                    .ifPresent(
                            health -> {
                                slotRetainedBytes = health.retainedBytes();
                                slotLagBytes = health.lagBytes();
                                for (String warning :
                                        health.warnings(config.cdc().walWarningBytes())) {
                                    LOG.warn("{}", warning);
                                }
                            });
        } catch (IOException | SQLException e) { // the next check tries again
            LOG.warn("Could not read replication slot {}: {}", config.cdc().slot(), e.getMessage());
        }
    }

    private void readStream(ReaderOutput<SourceRecord> output) throws IOException {
        if (!tablesKnown) {
            idle();
            return;
        }
        if (changes == null) {
            if (streamSplit.upTo() >= 0 && atEnd()) {
                // every transaction that committed before the run's marker was delivered, and the
                // next run's stream starts after the marker: the position moves there even when
                // none of the pipeline's tables changed, so the slot can let that WAL go
                resumeLsn = Math.max(resumeLsn, streamSplit.upTo());
                sendPositions(output);
                stream.close();
                stream = null;
                streamSplit = null;
                context.sendSplitRequest();
                return;
            }
            transaction = stream.next(POLL);
            if (transaction == null) {
                lag.caughtUp();
                passIdleWal();
                sendPositionsIfDue(output);
                return;
            }
            if (transaction.endLsn() <= resumeLsn
                    || (streamSplit.upTo() >= 0 && transaction.commitLsn() >= streamSplit.upTo())) {
                transaction.close(); // delivered before the restart, or after this run's end
                transaction = null;
                if (streamSplit.upTo() >= 0) {
                    upToReached = true;
                }
                return;
            }
            changes = transaction.changes().iterator();
            delivered = 0;
        }
        CdcAddedTables added = streamSplit.added();
        for (int n = 0; n < BATCH; n++) {
            Change change;
            if (stalled != null) {
                if (added.held().contains(stalled.table())) {
                    idle(); // until the enumerator releases the table
                    return;
                }
                change = stalled;
                stalled = null;
            } else if (changes.hasNext()) {
                change = changes.next();
                delivered++;
            } else {
                break;
            }
            if (transaction.commitLsn() == partialCommitLsn && delivered <= partialCount) {
                continue; // delivered before the restart
            }
            String key = change.schema() + "." + change.table();
            TableInfo table = tables.get(key);
            if (table == null || change.op() == Change.Op.TRUNCATE) {
                if (table != null) {
                    LOG.warn("TRUNCATE of {} is not applied to the destination", table);
                }
                continue;
            }
            if (transaction.commitLsn() <= added.consistentPoint(table.stream())
                    || added.rereads().covers(table, change, transaction.commitLsn(), keyOrder)) {
                continue; // in the added table's snapshot, or a part of a snapshot read again
            }
            if (added.held().contains(table.stream())) {
                stalled = change; // its snapshot may not be committed yet
                break;
            }
            TableInfo evolved = CdcRows.withColumns(table, change.columns());
            if (evolved != table) { // a Relation message with other columns: ALTER TABLE
                tables.put(key, evolved);
                schemas.remove(key);
                table = evolved;
            }
            StreamSchema schema = schemas.computeIfAbsent(key, k -> CdcRows.schema(tables.get(k)));
            Long version = announced.get(table.stream());
            if (version == null || version != schema.version()) {
                output.collect(new SchemaChange(schema));
                announced.put(table.stream(), schema.version());
            }
            Row gone = CdcRows.oldKeyDelete(change, table, schema, delivered);
            if (gone != null) {
                output.collect(gone);
            }
            output.collect(CdcRows.changeRow(change, table, schema, delivered));
        }
        if (stalled != null || changes.hasNext()) {
            partialCommitLsn = transaction.commitLsn();
            partialCount = stalled != null ? delivered - 1 : delivered;
        } else {
            resumeLsn = transaction.endLsn();
            partialCommitLsn = 0;
            partialCount = 0;
            lag.emitted(transaction.commitTime());
            transaction.close();
            transaction = null;
            changes = null;
            sendPositionsIfDue(output);
        }
    }

    /**
     * Caught up, between transactions: once the server has sent {@link #IDLE_WAL_STEP} of WAL that
     * held no change of the pipeline's tables, the position moves to where it has sent everything,
     * and the next checkpoint commits it, so the slot can let that WAL go. (Every time would commit
     * a position at every checkpoint of an idle pipeline.)
     */
    private void passIdleWal() {
        long idle = stream.idleLsn();
        if (streamSplit.upTo() < 0 && partialCommitLsn == 0 && idle - resumeLsn >= IDLE_WAL_STEP) {
            resumeLsn = idle;
        }
    }

    /** In a bounded run: whether every transaction that committed before its end was read. */
    private boolean atEnd() {
        if (upToReached || resumeLsn >= streamSplit.upTo()) {
            return true;
        }
        // the marker the enumerator wrote at upTo: every transaction before it came first
        return stream.markerLsn() >= streamSplit.upTo();
    }

    private void sendPositionsIfDue(ReaderOutput<SourceRecord> output) {
        if (positionDue && changes == null) {
            sendPositions(output);
        }
    }

    /** Every table's position: all transactions ending at or before {@link #resumeLsn}. */
    private void sendPositions(ReaderOutput<SourceRecord> output) {
        if (resumeLsn == positionSent) {
            return;
        }
        String position =
                ReadPositions.of(List.of(CdcPositions.entry(config.cdc().slot(), resumeLsn)));
        for (TableInfo table : streamSplit.positionedTables()) {
            output.collect(new ReadPosition(table.stream(), position));
        }
        positionSent = resumeLsn;
        positionDue = false;
    }

    @Override
    public List<CdcSplit> snapshotState(long checkpointId) {
        List<CdcSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current.withSnapshot(snapshotState.toSplit()));
        }
        if (streamSplit != null) {
            state.add(streamSplit.withStream(resumeLsn, partialCommitLsn, partialCount));
        }
        state.addAll(queue);
        positionDue = true; // the next checkpoint commits where the stream is then
        return state;
    }

    /**
     * Moves the slot to what the destination has committed, read from the destination itself: this
     * checkpoint's commit may not have happened yet (the committer commits on the same
     * notification, and retries), so the checkpoint alone proves nothing.
     */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws IOException {
        if (stream != null && System.nanoTime() - lastHealth >= HEALTH_NANOS) {
            checkSlot();
        }
        SerializableSupplier<Map<String, String>> committed = config.cdc().committed();
        if (stream == null
                || committed == null
                || System.nanoTime() - lastConfirm < CONFIRM_NANOS) {
            return;
        }
        lastConfirm = System.nanoTime();
        long lsn;
        try {
            lsn =
                    CdcPositions.committed(
                            committed.get(), streamSplit.positionedTables(), config.cdc().slot());
        } catch (RuntimeException e) { // the next checkpoint tries again
            LOG.warn("Could not read the destination's committed positions: {}", e.getMessage());
            return;
        }
        if (lsn > 0) {
            stream.confirm(lsn);
        }
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return available;
    }

    @Override
    public void addSplits(List<CdcSplit> splits) {
        queue.addAll(splits);
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void close() throws Exception {
        if (transaction != null) {
            transaction.close();
        }
        if (stream != null) {
            stream.close();
        }
        if (snapshotReader != null) {
            snapshotReader.close();
        }
        keyOrder.close();
    }

    /** Snapshot records as the CDC stream's: schemas and rows with {@code _skippr_lsn}. */
    private record SnapshotOutput(
            SourceOutput<SourceRecord> out, long consistentPoint, StreamSchema schema)
            implements SourceOutput<SourceRecord> {
        @Override
        public void collect(SourceRecord record) {
            out.collect(convert(record));
        }

        @Override
        public void collect(SourceRecord record, long timestamp) {
            out.collect(convert(record), timestamp);
        }

        private SourceRecord convert(SourceRecord record) {
            if (record instanceof SchemaChange change) {
                return new SchemaChange(schema);
            }
            if (record instanceof Row row) {
                return CdcRows.snapshotRow(row, schema, consistentPoint);
            }
            return record;
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            out.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            out.markIdle();
        }

        @Override
        public void markActive() {
            out.markActive();
        }
    }
}
