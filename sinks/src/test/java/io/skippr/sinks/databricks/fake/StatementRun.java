package io.skippr.sinks.databricks.fake;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.sinks.testing.IdleConnections;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.postgresql.PGConnection;

/**
 * One statement of the Statement Execution API, from {@code PENDING} through {@code RUNNING} to
 * {@code SUCCEEDED}, {@code FAILED} or {@code CANCELED}, and its {@code StatementResponse}. A
 * cancel before it runs ends it {@code CANCELED}; while it runs, it cancels the backing query and
 * rolls the statement back; after it ended, it changes nothing (as in Databricks, where a cancel
 * may arrive too late).
 */
final class StatementRun {
    final String id;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private volatile String state = "PENDING";
    private volatile Connection running;
    private volatile boolean cancelRequested;
    private Result result;
    private DatabricksError error;

    StatementRun(String id) {
        this.id = id;
    }

    /** Work that runs the statement on a backing connection. */
    interface Work {
        Result run(Connection pg) throws Exception;
    }

    boolean cancelRequested() {
        return cancelRequested;
    }

    String state() {
        return state;
    }

    /**
     * Runs the statement on a connection of {@code backing}'s, which gets it back afterwards; one
     * whose statement was asked to cancel is closed instead, since the cancel may still reach its
     * backend ({@link #cancel()} reads {@link #running} after setting {@link #cancelRequested},
     * this reads them the other way round).
     */
    void execute(IdleConnections backing, Work work) {
        Connection c = null;
        try {
            if (cancelRequested) {
                state = "CANCELED";
                return;
            }
            c = backing.take();
            running = c;
            state = "RUNNING";
            Result r = work.run(c);
            synchronized (this) {
                result = r;
                state = "SUCCEEDED";
            }
        } catch (SQLException e) {
            if ("57014".equals(e.getSQLState()) && cancelRequested) {
                state = "CANCELED";
            } else {
                fail(DatabricksErrors.of(e));
            }
        } catch (DatabricksError e) {
            fail(e);
        } catch (java.io.IOException e) {
            fail(
                    new DatabricksError(
                            "IO_ERROR",
                            "FAKE_DATABRICKS_IO_ERROR",
                            "58030",
                            "fake Databricks: an I/O failure: " + e.getMessage()));
        } catch (Exception e) {
            fail(
                    new DatabricksError(
                            "INTERNAL_ERROR",
                            "FAKE_DATABRICKS_INTERNAL_ERROR",
                            "XX000",
                            "fake Databricks failed: " + e));
        } finally {
            running = null;
            if (c != null) {
                backing.giveBack(c, !cancelRequested);
            }
            done.complete(null);
        }
    }

    private synchronized void fail(DatabricksError e) {
        error = e;
        state = "FAILED";
    }

    /**
     * Asks the statement to stop; answers at once (poll for the terminal state). Until it ends, the
     * backing query is cancelled again every 50 ms, so that a cancel that arrives between two of
     * the statement's queries still stops the next.
     */
    void cancel() {
        cancelRequested = true;
        CompletableFuture.runAsync(
                () -> {
                    while (!done.isDone()) {
                        Connection c = running;
                        if (c != null) {
                            try {
                                c.unwrap(PGConnection.class).cancelQuery();
                            } catch (SQLException e) {
                                // the connection closed meanwhile: the statement is ending
                            }
                        }
                        try {
                            done.get(50, TimeUnit.MILLISECONDS);
                        } catch (TimeoutException | ExecutionException e) {
                            // not ended yet: cancel again
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                });
    }

    /** Waits up to {@code seconds} for the statement to end; answers whether it did. */
    boolean await(long seconds) throws InterruptedException {
        try {
            done.get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code StatementResponse} as it stands. */
    synchronized ObjectNode response() {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        r.put("statement_id", id);
        ObjectNode status = r.putObject("status");
        status.put("state", state);
        if (state.equals("FAILED")) {
            ObjectNode e = status.putObject("error");
            e.put("error_code", error.errorCode);
            e.put("message", error.getMessage());
            status.put("sql_state", error.sqlState);
        }
        if (state.equals("SUCCEEDED")) {
            r.set("manifest", result.manifest());
            r.set("result", result.data());
        }
        return r;
    }

    /** Chunk {@code index} of a succeeded statement's result, or null. */
    synchronized ObjectNode chunk(int index) {
        return state.equals("SUCCEEDED") && index == 0 ? result.data() : null;
    }
}
