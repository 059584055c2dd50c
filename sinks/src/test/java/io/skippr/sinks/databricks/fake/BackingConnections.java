package io.skippr.sinks.databricks.fake;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The backing PostgreSQL connections of one fake: each statement and each Files API lookup takes
 * one for itself and gives it back when it ended, rolled back and in autocommit, for the next (a
 * new connection costs a PostgreSQL login, 30-80 ms under load, and the sink sends hundreds of
 * requests per test). A connection whose statement was cancelled is closed, never reused: a cancel
 * request may still be on its way to its backend. While a statement runs, the connection is its
 * alone, so isolation, locking and cancellation are what they were with a new one each time.
 */
final class BackingConnections implements StatementApi.Backing, AutoCloseable {
    /** Opens a new connection to the fake's backing database. */
    interface Opener {
        Connection open() throws SQLException;
    }

    private final Opener opener;
    private final Queue<Connection> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    BackingConnections(Opener opener) {
        this.opener = opener;
    }

    @Override
    public Connection open() throws SQLException {
        Connection c = idle.poll();
        return c != null ? c : opener.open();
    }

    /**
     * Gives {@code c} back: for the next statement when {@code reuse} and it is still sound, closed
     * otherwise (and after {@link #close()}).
     */
    @Override
    public void release(Connection c, boolean reuse) {
        try {
            if (reuse && !closed && !c.isClosed()) {
                if (!c.getAutoCommit()) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                idle.add(c);
                return;
            }
        } catch (SQLException e) {
            // the connection is broken: close it below
        }
        quietlyClose(c);
    }

    private static void quietlyClose(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // the database is going away with it
        }
    }

    @Override
    public void close() {
        closed = true;
        for (Connection c = idle.poll(); c != null; c = idle.poll()) {
            quietlyClose(c);
        }
    }
}
