package io.skippr.sources.postgres;

import io.skippr.core.postgres.PgErrors;
import io.skippr.core.record.ReadPosition;
import io.skippr.core.record.ReadPositions;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the splits assigned to one reader, one at a time, each through a binary COPY of its query
 * ({@link SplitQuery}) in a repeatable-read transaction: PostgreSQL streams the rows and only the
 * current one is held ({@link CopyRows}), so a table is never held in memory. Each {@link #fetch()}
 * returns at most {@link #BATCH_ROWS} rows, so the fetcher thread stays responsive.
 */
final class PostgresSplitReader implements SplitReader<ReadRecord, PostgresSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresSplitReader.class);

    static final int BATCH_ROWS = 1024;
    private static final long BATCH_NANOS = 200_000_000L;

    private final PostgresConnectionConfig connectionConfig;

    /** A continuous run's reader: names each split before its rows, and chains its positions. */
    private final boolean continuous;

    private final Deque<PostgresSplit> queue = new ArrayDeque<>();
    private final Map<String, Boolean> stored = new HashMap<>();

    private Connection connection;
    private PostgresSplit current;
    private CopyRows rows;
    private RowDecoder decoder;
    private long ordinal;
    private Unseen unseen = Unseen.of(List.of());
    private boolean firstOfRead;
    private boolean standbyWarned;

    /** The exported snapshot a CDC snapshot split's transaction imports; null for none. */
    private final String importSnapshot;

    PostgresSplitReader(PostgresConnectionConfig connectionConfig, boolean continuous) {
        this(connectionConfig, continuous, null);
    }

    PostgresSplitReader(
            PostgresConnectionConfig connectionConfig, boolean continuous, String importSnapshot) {
        this.connectionConfig = connectionConfig;
        this.continuous = continuous;
        this.importSnapshot = importSnapshot;
    }

    @Override
    public RecordsWithSplitIds<ReadRecord> fetch() throws IOException {
        RecordsBySplits.Builder<ReadRecord> batch = new RecordsBySplits.Builder<>();
        if (current == null) {
            current = queue.poll();
            if (current == null) {
                return batch.build();
            }
            current = open(current);
            ReadPosition opening = opening(current);
            if (opening != null) {
                batch.add(current.splitId(), new ReadRecord(opening, null, ordinal));
            }
        }
        String id = current.splitId();
        long deadline = System.nanoTime() + BATCH_NANOS;
        try {
            for (int n = 0; n < BATCH_ROWS; n++) {
                if (!rows.next()) {
                    ReadPosition position = position(current);
                    if (position != null) {
                        batch.add(id, new ReadRecord(position, null, ordinal));
                    }
                    finishCurrent();
                    batch.addFinishedSplit(id);
                    break;
                }
                ordinal++;
                ReadRecord record = decoder.decode(rows, ordinal).withBytes(rows.rowBytes());
                if (firstOfRead) { // the split's state keeps what this read could not see
                    record = record.withUnseen(unseen);
                    firstOfRead = false;
                }
                batch.add(id, record);
                if ((n & 63) == 63 && System.nanoTime() > deadline) {
                    break;
                }
            }
        } catch (SQLException e) {
            PostgresSplit failed = current;
            abandon();
            throw new IOException(
                    "Reading "
                            + failed.table().qualifiedName()
                            + " (split "
                            + failed.splitId()
                            + ") from "
                            + connectionConfig.describe()
                            + " failed: "
                            + e.getMessage(),
                    PgErrors.cause(e));
        }
        return batch.build();
    }

    /**
     * Starts reading {@code split}; returns it as read (from its start when its table was
     * rewritten).
     */
    private PostgresSplit open(PostgresSplit split) throws IOException {
        try {
            if (connection == null || connection.isClosed()) {
                connection = connectionConfig.connect();
                connection.setAutoCommit(false);
                connection.setReadOnly(true);
                // one snapshot for the split's query and the in-progress list read before it
                connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            }
            LOG.info("Reading {}", split);
            importSnapshot();
            RowOrder order = RowOrder.of(split.table(), stored(split.table())).of(split);
            // rows of a view or a foreign table carry no transaction ids: no late commits there
            boolean late = order.stored() && (split.window() != null || split.late() != null);
            Snapshot snapshot = null;
            if (late) {
                List<String> runningBefore = completeOne(connection);
                snapshot = Snapshot.take(connection, runningBefore, split);
            }
            split = unlessRewritten(split, order);
            if (late) {
                XidBand now = split.late() != null ? snapshot.lateBand() : snapshot.windowBand();
                Unseen earlier = split.unseen();
                if (earlier != null
                        && (split.lastKey() != null || split.rowsEmitted() > 0)) { // resumed
                    unseen =
                            new Unseen(
                                    union(earlier.xids(), snapshot.inProgress()),
                                    XidBand.either(earlier.band(), now),
                                    resumed(split.lastKey(), earlier, snapshot));
                } else {
                    unseen = new Unseen(snapshot.inProgress(), now, List.of());
                }
            } else {
                unseen = Unseen.of(List.of());
            }
            firstOfRead = true;
            decoder = new RowDecoder(split.table(), order);
            try (Statement st = connection.createStatement()) {
                // one COPY reads the whole split at the pace of the job: a statement_timeout
                // set for the role or database would cut it, where it bounded each cursor fetch
                st.execute("SET LOCAL statement_timeout = 0");
            }
            rows =
                    new CopyRows(
                            SplitQuery.of(split, late ? snapshot.xmax() : null, order)
                                    .copy(connection),
                            decoder.fieldCount());
            ordinal = split.rowsEmitted();
            return split;
        } catch (SQLException e) {
            abandon();
            throw new IOException(
                    "Querying "
                            + split.table().qualifiedName()
                            + " (split "
                            + split.splitId()
                            + ") on "
                            + connectionConfig.describe()
                            + " failed: "
                            + e.getMessage(),
                    PgErrors.cause(e));
        }
    }

    /**
     * A CDC snapshot split's transaction sees the slot's exported snapshot: its first statement
     * imports it. When the snapshot has ended (the enumerator that held it restarted), the split
     * reads the table as it is now; the stream then replays the changes since the slot's consistent
     * point over those rows, which a merge by {@code _skippr_lsn} makes converge.
     */
    private void importSnapshot() throws SQLException {
        if (importSnapshot == null) {
            return;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("SET TRANSACTION SNAPSHOT " + Sql.literal(importSnapshot));
        } catch (SQLException e) {
            connection.rollback();
            LOG.warn(
                    "Exported snapshot {} has ended ({}): the split reads the table as it is now",
                    importSnapshot,
                    e.getMessage());
        }
    }

    /**
     * {@code split}, or, when it resumes after a row address ({@link RowOrder}) and its table has
     * been rewritten since (every row then has a new address), the split from its start, with a
     * warning. The table's lock, held until the split's read ends, keeps it from being rewritten
     * while it is read; a rewrite committed between the split's snapshot and the lock is seen.
     */
    private PostgresSplit unlessRewritten(PostgresSplit split, RowOrder order) throws SQLException {
        if (split.lastKey() == null || !order.byAddress()) {
            return split;
        }
        try (Statement st = connection.createStatement()) {
            st.execute("LOCK TABLE " + split.table().qualifiedName() + " IN ACCESS SHARE MODE");
        }
        try (PreparedStatement st = connection.prepareStatement(RowOrder.rewritten())) {
            st.setString(1, split.lastKey().get(0));
            st.setString(2, order.fileNode(split.lastKey()));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    return split;
                }
            }
        }
        LOG.warn(
                "{} was rewritten (VACUUM FULL, CLUSTER, TRUNCATE or a column type change) after"
                        + " split {} read part of it, so its rows have new addresses: the split is"
                        + " read again from its start, and the {} row(s) it had read may load a"
                        + " second time",
                split.table().qualifiedName(),
                split.splitId(),
                split.rowsEmitted());
        return new PostgresSplit(
                split.splitId(),
                split.table(),
                split.keyFrom(),
                split.keyTo(),
                split.window(),
                null,
                0,
                split.late(),
                (Unseen) null,
                null);
    }

    /**
     * Whether {@code table}'s relation stores its rows ({@link RowOrder#of(TableInfo, boolean)}),
     * asked once per reader; it runs in the split's transaction before its snapshot matters.
     */
    private boolean stored(TableInfo table) throws SQLException {
        Boolean known = stored.get(table.qualifiedName());
        if (known == null) {
            known = RowOrder.stored(connection, table);
            stored.put(table.qualifiedName(), known);
        }
        return known;
    }

    /**
     * Of a split restored after reading up to its last key in an earlier snapshot, the parts of
     * what that snapshot could not see that this one reads after the key: the rows of its
     * transactions that committed since, and of the ids given out since while its band was open.
     * The split's position names them with the earlier ones ({@link #union}), so a late read of
     * them skips these. A split of an earlier version without a key resumed by row number has no
     * last key: its parts stay as they were.
     */
    private static List<ReadEntry.Part> resumed(
            List<String> lastKey, Unseen earlier, Snapshot snapshot) {
        if (lastKey == null) {
            return earlier.parts();
        }
        List<Long> committed = new ArrayList<>(earlier.xids());
        committed.removeAll(snapshot.inProgress());
        Long from = earlier.band() == null ? null : earlier.band().from();
        if (committed.isEmpty() && from == null) {
            return earlier.parts();
        }
        List<ReadEntry.Part> all = new ArrayList<>(earlier.parts());
        all.add(
                new ReadEntry.Part(
                        lastKey, committed, from, snapshot.xmax(), snapshot.inProgress(), true));
        return all;
    }

    /**
     * The transactions an earlier read of a restored split could not see, and those of this one:
     * rows read before the restore were read in the earlier snapshot. (Rows after the split's last
     * key of a transaction in the first list only were read by this one: {@link #resumed}.)
     */
    private static List<Long> union(List<Long> earlier, List<Long> now) {
        if (earlier == null) {
            return now;
        }
        Set<Long> all = new TreeSet<>(earlier);
        all.addAll(now);
        return List.copyOf(all);
    }

    /**
     * Reads the transactions running now, then commits a transaction with an id of its own, before
     * the split's snapshot is taken. A snapshot lists as in progress only transactions below its
     * {@code xmax}, one above the newest that completed: without this, a transaction that wrote and
     * is the newest would be beyond the read's list, in its {@link XidBand} (so read later,
     * whenever ids were given out since the snapshot). A server that cannot give ids (a standby) is
     * read without.
     *
     * @return the virtual transaction ids running before the snapshot
     */
    private List<String> completeOne(Connection c) throws SQLException {
        List<String> running = Snapshot.running(c);
        try (Statement st = c.createStatement()) {
            st.execute("SELECT txid_current()");
            c.commit();
        } catch (SQLException e) {
            c.rollback();
            if (!standbyWarned) {
                standbyWarned = true;
                LOG.warn(
                        "{} gives no transaction ids ({}): late commits are read there only of"
                                + " transactions that had written when a read started",
                        connectionConfig.describe(),
                        e.getMessage());
            }
        }
        return running;
    }

    /**
     * In a continuous run, the split's name sent before its rows ({@link ReadPositions#opening}): a
     * window split's chained entry, or a late-commit split's reads, each with the transactions in
     * progress in the snapshot it reads in: a split cancelled while it read commits its opening
     * with the key of its last row ({@link ReadPositions#progress}), and the rows those
     * transactions write in the part it read are late commits ({@link Frontier}). Null in a {@code
     * --once} run and for a table without a cursor column.
     */
    private ReadPosition opening(PostgresSplit split) {
        String entry = null;
        if (!continuous) {
            return null;
        } else if (split.window() != null) {
            entry = windowEntry(split).toLine();
        } else if (split.late() != null) {
            List<ReadEntry> reads = new ArrayList<>();
            for (ReadEntry read : split.late()) {
                List<ReadEntry.Part> known = new ArrayList<>(read.read());
                known.addAll(unseen.parts());
                reads.add(read.withRead(known));
            }
            entry = ReadEntry.lateOpening(reads, unseen.xids(), unseen.band().from());
        }
        return entry == null
                ? null
                : new ReadPosition(split.table().stream(), ReadPositions.opening(entry));
    }

    /**
     * How far a split read its table, sent after its rows: a window's top with the transactions its
     * snapshot could not see (chained to the window below in a continuous run); for a late-commit
     * split, the earlier reads' transactions that are still in progress, and their top. Null for a
     * table without a cursor column.
     */
    private ReadPosition position(PostgresSplit split) {
        List<String> entries = new ArrayList<>();
        if (split.window() != null) {
            entries.add(windowEntry(split).toLine());
        }
        if (split.late() != null) {
            for (ReadEntry read : split.late()) {
                // the read's own name with the transactions still open, none when all committed:
                // a position that also holds the read's first entry (the union a continuous run
                // commits to) then says it is no longer late; its top stays where the next window
                // starts
                entries.add(
                        read.keeping(unseen.xids(), unseen.band())
                                .withRead(unseen.parts())
                                .toLine());
            }
        }
        return entries.isEmpty()
                ? null
                : new ReadPosition(split.table().stream(), ReadPositions.of(entries));
    }

    /**
     * A window split's read as its position names it, with what it could not see: chained to the
     * window below in a continuous run.
     */
    private ReadEntry windowEntry(PostgresSplit split) {
        ReadEntry entry =
                continuous
                        ? ReadEntry.chained(
                                split.window(),
                                split.keyFrom(),
                                split.keyTo(),
                                unseen.xids(),
                                unseen.band())
                        : new ReadEntry(
                                split.window().upTo(),
                                split.keyFrom(),
                                split.keyTo(),
                                unseen.xids(),
                                null,
                                null,
                                unseen.band());
        return entry.withRead(unseen.parts());
    }

    /** Ends the current split's query and its transaction. */
    private void finishCurrent() throws SQLException {
        rows.close(); // after its end: the COPY has completed
        rows = null;
        connection.commit();
        current = null;
        decoder = null;
    }

    /** After a failure: drops the split's query and the connection, which may be broken. */
    private void abandon() {
        PostgresConnectionConfig.closeQuietly(connection); // ends a COPY not read to its end
        rows = null;
        connection = null;
        current = null;
        decoder = null;
    }

    @Override
    public void handleSplitsChanges(SplitsChange<PostgresSplit> splitsChanges) {
        if (splitsChanges instanceof SplitsAddition<PostgresSplit> addition) {
            queue.addAll(addition.splits());
        } else {
            throw new UnsupportedOperationException(
                    "unsupported split change " + splitsChanges.getClass().getSimpleName());
        }
    }

    @Override
    public void wakeUp() {
        // fetch() returns after a bounded batch, so there is nothing to interrupt
    }

    @Override
    public void close() {
        abandon();
    }
}
