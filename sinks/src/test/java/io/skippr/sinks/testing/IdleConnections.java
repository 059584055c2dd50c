package io.skippr.sinks.testing;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A fake's backing PostgreSQL connections, kept for reuse: a fake takes one per statement or per
 * client session and gives it back when that ended, instead of opening a new one each time (a
 * PostgreSQL login costs 30-80 ms under load, and the sinks send hundreds of requests per test). A
 * connection given back is rolled back, put in autocommit and cleared with {@code DISCARD ALL}
 * (temporary tables, session settings, locks, prepared statements: what a new connection would not
 * have), or closed when that fails or its user says it must not be reused. While in use, a
 * connection is its user's alone, so isolation, locking and cancellation are what they are with a
 * new connection each time. Open the connections with {@code prepareThreshold=0}: pgjdbc's cache of
 * server-side prepared statements does not survive {@code DISCARD ALL}.
 */
public final class IdleConnections implements AutoCloseable {
    /** Opens a new connection to the fake's backing database. */
    public interface Opener {
        Connection open() throws SQLException;
    }

    private final Opener opener;
    private final Queue<Connection> idle = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;

    public IdleConnections(Opener opener) {
        this.opener = opener;
    }

    /** An idle connection, or a new one. */
    public Connection take() throws SQLException {
        Connection c = idle.poll();
        return c != null ? c : opener.open();
    }

    /**
     * Gives {@code c} back: kept for the next {@link #take()} when {@code reuse} and it is sound,
     * closed otherwise (and after {@link #close()}).
     */
    public void giveBack(Connection c, boolean reuse) {
        try {
            if (reuse && !closed && !c.isClosed()) {
                if (!c.getAutoCommit()) {
                    c.rollback();
                    c.setAutoCommit(true);
                }
                try (Statement st = c.createStatement()) {
                    st.execute("DISCARD ALL");
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

    /** Closes the idle connections; those given back later are closed then. */
    @Override
    public void close() {
        closed = true;
        for (Connection c = idle.poll(); c != null; c = idle.poll()) {
            quietlyClose(c);
        }
    }
}
