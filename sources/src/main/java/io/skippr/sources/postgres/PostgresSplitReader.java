package io.skippr.sources.postgres;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the splits assigned to one reader, one at a time, through a server-side cursor: the
 * connection is not in autocommit and the statement has a fetch size, so PostgreSQL sends rows in
 * batches and a table is never held in memory. Each {@link #fetch()} returns at most {@link
 * #BATCH_ROWS} rows, so the fetcher thread stays responsive.
 */
final class PostgresSplitReader implements SplitReader<ReadRecord, PostgresSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresSplitReader.class);

    static final int BATCH_ROWS = 1024;
    private static final long BATCH_NANOS = 200_000_000L;

    private final PostgresConnectionConfig connectionConfig;
    private final int fetchSize;
    private final Deque<PostgresSplit> queue = new ArrayDeque<>();

    private Connection connection;
    private PostgresSplit current;
    private ResultSet rows;
    private RowDecoder decoder;
    private long ordinal;

    PostgresSplitReader(PostgresConnectionConfig connectionConfig, int fetchSize) {
        this.connectionConfig = connectionConfig;
        this.fetchSize = fetchSize;
    }

    @Override
    public RecordsWithSplitIds<ReadRecord> fetch() throws IOException {
        RecordsBySplits.Builder<ReadRecord> batch = new RecordsBySplits.Builder<>();
        if (current == null) {
            current = queue.poll();
            if (current == null) {
                return batch.build();
            }
            open(current);
        }
        String id = current.splitId();
        long deadline = System.nanoTime() + BATCH_NANOS;
        try {
            for (int n = 0; n < BATCH_ROWS; n++) {
                if (!rows.next()) {
                    finishCurrent();
                    batch.addFinishedSplit(id);
                    break;
                }
                ordinal++;
                batch.add(id, decoder.decode(rows, ordinal));
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
                    e);
        }
        return batch.build();
    }

    private void open(PostgresSplit split) throws IOException {
        SplitQuery query = SplitQuery.of(split);
        try {
            if (connection == null || connection.isClosed()) {
                connection = connectionConfig.connect();
                connection.setAutoCommit(false);
                connection.setReadOnly(true);
            }
            LOG.info("Reading {}", split);
            rows = query.execute(connection, fetchSize);
            decoder = new RowDecoder(split.table());
            ordinal = split.rowsEmitted();
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
                    e);
        }
    }

    /** Ends the current split's query and its transaction. */
    private void finishCurrent() throws SQLException {
        rows.close();
        rows = null;
        connection.commit();
        current = null;
        decoder = null;
    }

    /** After a failure: drops the split's query and the connection, which may be broken. */
    private void abandon() {
        PostgresConnectionConfig.closeQuietly(rows);
        PostgresConnectionConfig.closeQuietly(connection);
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
