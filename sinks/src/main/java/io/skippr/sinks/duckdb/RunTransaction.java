package io.skippr.sinks.duckdb;

import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.duckdb.DuckDBConnection;

/**
 * The one open DuckDB transaction that every writer subtask of a bounded append run loads its rows
 * into, straight into the target tables ({@link DuckDbRunLoader}), and that the run's commit
 * finishes with its marker rows: nothing of the run is in the file until that commit, and a crash
 * before it leaves nothing (DuckDB writes only committed transactions). It lives in this JVM, where
 * DuckDB lets one process write a database file anyway: writers and commit share it by key.
 *
 * <p>It does not take {@link DuckDbInstances}' transaction permit: it stays open for the whole run,
 * while the load probe of a target with rules of its own may open short transactions beside it
 * (such a target is staged inside this transaction, not appended to, so the two never write the
 * same table's rows).
 *
 * <p>A writer subtask that joins twice (a restarted attempt) or leaves before the end of its input
 * discards the transaction, rows of every subtask with it, and the next joiner opens a new one; the
 * commit then finds only the subtasks that loaded into the new one and refuses to commit part of
 * the run ({@link #forCommit}).
 */
final class RunTransaction {
    private static final Map<Key, RunTransaction> OPEN = new HashMap<>();

    private record Key(String url, String pipeline, String sink, String schema, long run) {}

    private final Key key;
    private final Connection handle;
    private final DuckDBConnection connection;
    private final Set<Integer> joined = new TreeSet<>();
    private final Set<Integer> finished = new TreeSet<>();
    private final Set<String> appending = new HashSet<>();
    private String discarded;

    private RunTransaction(Key key, Connection handle) throws SQLException {
        this.key = key;
        this.handle = handle;
        this.connection = handle.unwrap(DuckDBConnection.class);
        connection.setAutoCommit(false);
    }

    private static Key key(DuckDbDatabase database, SqlSinkSettings settings) {
        return new Key(
                database.url(),
                settings.pipeline(),
                settings.sink(),
                settings.schema(),
                settings.run());
    }

    /** Writer {@code subtask} joins its run's transaction, opening it if there is none. */
    static RunTransaction join(DuckDbDatabase database, SqlSinkSettings settings, int subtask)
            throws IOException {
        Key key = key(database, settings);
        synchronized (OPEN) {
            RunTransaction open = OPEN.get(key);
            if (open != null && open.joined.contains(subtask)) {
                open.discard("writer subtask " + subtask + " started again");
                open = null;
            }
            if (open == null) {
                try {
                    open = new RunTransaction(key, database.connect());
                } catch (SQLException e) {
                    throw database.failure("opening the run's transaction", e);
                }
                OPEN.put(key, open);
            }
            open.joined.add(subtask);
            return open;
        }
    }

    /** The connection, auto-commit off; statements on it run in the run's transaction. */
    DuckDBConnection connection() {
        return connection;
    }

    /**
     * Whether {@code target} may take a DDL change now: no writer has an appender open on it (an
     * ALTER would change the columns under it). Once false it stays false for the run.
     */
    synchronized boolean alterable(String target) {
        return !appending.contains(target);
    }

    /** A writer opened an appender on {@code target}. */
    synchronized void appendingTo(String target) {
        appending.add(target);
    }

    /** Writer {@code subtask} has loaded all of its input. */
    void finished(int subtask) {
        synchronized (OPEN) {
            finished.add(subtask);
        }
    }

    /** Writer {@code subtask} stops; before the end of its input that discards the transaction. */
    void left(int subtask) {
        synchronized (OPEN) {
            if (discarded == null && !finished.contains(subtask)) {
                discard("writer subtask " + subtask + " stopped before the end of its input");
            }
        }
    }

    /** Rolls back and forgets the transaction; its writers' next statement fails. */
    private void discard(String why) {
        discarded = why;
        OPEN.remove(key, this);
        close();
    }

    /**
     * The run's transaction for its commit, which every one of the run's {@code parallelism} writer
     * subtasks must have loaded into to the end; null when no writer of the run opened one.
     */
    static DuckDBConnection forCommit(
            DuckDbDatabase database, SqlSinkSettings settings, int parallelism) {
        Key key = key(database, settings);
        synchronized (OPEN) {
            RunTransaction open = OPEN.get(key);
            if (open == null) {
                return null;
            }
            Set<Integer> all = new TreeSet<>();
            for (int i = 0; i < parallelism; i++) {
                all.add(i);
            }
            if (!open.finished.equals(all)) {
                Set<Integer> lost = new TreeSet<>(all);
                lost.removeAll(open.finished);
                open.discard("its commit found it incomplete");
                throw new SqlSinkException(
                        "Bounded run "
                                + settings.run()
                                + " of pipeline "
                                + settings.pipeline()
                                + " loaded "
                                + database.describe()
                                + " in one transaction, and the rows of writer subtasks "
                                + lost
                                + " are not in it: a writer subtask started again after a"
                                + " failure, which rolled back what the others had loaded."
                                + " Nothing of the run was committed; run the pipeline again");
            }
            return open.connection;
        }
    }

    /**
     * Forgets the run's transaction after its commit (done or failed), rolling back what is left.
     */
    static void end(DuckDbDatabase database, SqlSinkSettings settings) {
        synchronized (OPEN) {
            RunTransaction open = OPEN.remove(key(database, settings));
            if (open != null) {
                open.close();
            }
        }
    }

    private void close() {
        try {
            handle.close(); // rolls back what the commit did not commit
        } catch (SQLException ignored) {
            // the transaction ends with the connection either way
        }
    }
}
