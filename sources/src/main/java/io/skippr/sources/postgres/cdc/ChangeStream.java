package io.skippr.sources.postgres.cdc;

import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;
import org.postgresql.replication.LogSequenceNumber;
import org.postgresql.replication.PGReplicationStream;

/**
 * The committed transactions of a logical replication slot's {@code pgoutput} stream (protocol 1,
 * text values), whole and in commit order, from a start LSN. The slot's confirmed flush LSN moves
 * only by {@link #confirm}: never by reading, so the server keeps every change the caller has not
 * confirmed and sends it again after a reconnect. Status updates (which keep the connection alive
 * and report the confirmed LSN) go out every {@code statusInterval} while the caller polls. One
 * thread uses a stream at a time.
 */
public final class ChangeStream implements AutoCloseable {
    private static final long IDLE_PAUSE_MILLIS = 5;

    private final Connection connection;
    private final PGReplicationStream stream;
    private final CatalogTypes types;
    private final TransactionAssembler assembler;
    private long confirmed;
    private long markerLsn;

    private ChangeStream(
            Connection connection,
            PGReplicationStream stream,
            CatalogTypes types,
            long confirmed,
            SpillSettings spill) {
        this.connection = connection;
        this.stream = stream;
        this.types = types;
        this.assembler = new TransactionAssembler(types, spill);
        this.confirmed = confirmed;
    }

    /**
     * Starts streaming {@code slot} for {@code publication}: transactions that commit at or after
     * {@code startLsn}, or after the slot's confirmed flush LSN when that is later (0 for the
     * slot's own position). Open transactions spill by {@link SpillSettings#defaults()}.
     */
    public static ChangeStream open(
            PostgresConnectionConfig config,
            String slot,
            String publication,
            long startLsn,
            Duration statusInterval)
            throws IOException {
        return open(config, slot, publication, startLsn, statusInterval, SpillSettings.defaults());
    }

    /**
     * Starts streaming as {@link #open(PostgresConnectionConfig, String, String, long, Duration)}
     * does, holding at most {@code spill.maxChangesInMemory()} changes of a transaction in memory.
     */
    public static ChangeStream open(
            PostgresConnectionConfig config,
            String slot,
            String publication,
            long startLsn,
            Duration statusInterval,
            SpillSettings spill)
            throws IOException {
        return open(config, slot, publication, startLsn, statusInterval, spill, false);
    }

    /**
     * Starts streaming as {@link #open(PostgresConnectionConfig, String, String, long, Duration,
     * SpillSettings)} does; with {@code markers} (PostgreSQL 14 and later) it also receives the
     * non-transactional logical messages written with {@code pg_logical_emit_message(false, ...)},
     * whose LSN {@link #markerLsn()} gives: every transaction that committed before one was
     * returned before it.
     */
    public static ChangeStream open(
            PostgresConnectionConfig config,
            String slot,
            String publication,
            long startLsn,
            Duration statusInterval,
            SpillSettings spill,
            boolean markers)
            throws IOException {
        Slots.checkSlotName(slot);
        if (publication.indexOf('\'') >= 0) {
            // pgjdbc writes START_REPLICATION's option values between single quotes as they are
            throw new IllegalArgumentException(
                    "publication name " + publication + " has a single quote: not streamable");
        }
        Connection connection = null;
        try {
            connection = ReplicationConnections.open(config);
            PGReplicationStream stream =
                    connection
                            .unwrap(PGConnection.class)
                            .getReplicationAPI()
                            .replicationStream()
                            .logical()
                            .withSlotName(slot)
                            .withStartPosition(LogSequenceNumber.valueOf(startLsn))
                            .withSlotOption("proto_version", "1")
                            .withSlotOption("publication_names", Slots.quoteName(publication))
                            .withSlotOption("messages", markers ? "true" : "false")
                            // pgjdbc's default flushes the server's position on keepalives
                            // once all it received was flushed: the slot would move without
                            // confirm()
                            .withAutomaticFlush(false)
                            .withStatusInterval(
                                    (int) statusInterval.toMillis(), TimeUnit.MILLISECONDS)
                            .start();
            return new ChangeStream(connection, stream, new CatalogTypes(config), startLsn, spill);
        } catch (SQLException e) {
            PostgresConnectionConfig.closeQuietly(connection);
            throw new IOException(
                    "Could not start replication from slot "
                            + slot
                            + " (publication "
                            + Slots.quoteName(publication)
                            + ") on "
                            + config.describe()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * The next committed transaction, or null when none completed within {@code timeout}. Read its
     * changes (or close it) before the next call: status updates go out only while this polls.
     */
    public Transaction next(Duration timeout) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                ByteBuffer message = stream.readPending();
                if (message != null) {
                    long lsn = stream.getLastReceiveLSN().asLong();
                    PgOutputMessage decoded = PgOutputDecoder.decode(message);
                    if (decoded instanceof PgOutputMessage.Message m && !m.transactional()) {
                        markerLsn = Math.max(markerLsn, m.lsn());
                    }
                    Transaction done = assembler.accept(lsn, decoded);
                    if (done != null) {
                        return done;
                    }
                } else if (System.nanoTime() - deadline >= 0) {
                    return null;
                } else {
                    Thread.sleep(IDLE_PAUSE_MILLIS);
                }
            }
        } catch (SQLException e) {
            throw new IOException("Reading the replication stream failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the replication stream", e);
        }
    }

    /**
     * Tells the server that everything before {@code lsn} (a {@link Transaction#endLsn()}) is safe
     * in the destination: the slot's confirmed flush LSN moves there, and the server may recycle
     * the WAL before it. An LSN below what was confirmed already is ignored.
     */
    public void confirm(long lsn) throws IOException {
        if (lsn <= confirmed) {
            return;
        }
        LogSequenceNumber position = LogSequenceNumber.valueOf(lsn);
        stream.setFlushedLSN(position);
        stream.setAppliedLSN(position);
        try {
            stream.forceUpdateStatus();
        } catch (SQLException e) {
            throw new IOException(
                    "Could not confirm LSN " + Lsn.show(lsn) + " to the server: " + e.getMessage(),
                    e);
        }
        confirmed = lsn;
    }

    /**
     * Sends a status update (the confirmed LSN again) without reading: keeps the connection alive
     * while the caller holds back from reading (the server ends a silent one after {@code
     * wal_sender_timeout}).
     */
    public void keepAlive() throws IOException {
        try {
            stream.forceUpdateStatus();
        } catch (SQLException e) {
            throw new IOException("Could not send a status update: " + e.getMessage(), e);
        }
    }

    /**
     * Between transactions, the WAL position the server has sent everything up to, its keepalives
     * included: every transaction that commits before it has been returned. While the published
     * tables are quiet and the rest of the database is not, this keeps moving; confirming it once
     * every returned transaction is in the destination lets the server recycle WAL the slot would
     * otherwise hold for changes it never sends. -1 while a transaction is being read.
     */
    public long idleLsn() {
        return assembler.idle() ? stream.getLastReceiveLSN().asLong() : -1;
    }

    /** The LSN of the last non-transactional logical message received; 0 before any. */
    public long markerLsn() {
        return markerLsn;
    }

    /** The last LSN {@link #confirm} sent (the start LSN before any). */
    public long confirmed() {
        return confirmed;
    }

    @Override
    public void close() throws IOException {
        try {
            stream.close();
        } catch (SQLException e) {
            throw new IOException("Could not close the replication stream: " + e.getMessage(), e);
        } finally {
            PostgresConnectionConfig.closeQuietly(connection);
            types.close();
            assembler.close();
        }
    }
}
