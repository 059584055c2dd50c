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
    private final Set<Integer> open = new TreeSet<>(); // writers whose loader is not closed yet
    private final Set<String> appending = new HashSet<>();
    private boolean discarded;

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
            RunTransaction run = OPEN.get(key);
            if (run != null && run.joined.contains(subtask)) {
                run.discard(); // writer subtask started again: its rows are in there once already
                run = null;
            }
            if (run == null) {
                try {
                    run = new RunTransaction(key, database.connect());
                } catch (SQLException e) {
                    throw database.failure("opening the run's transaction", e);
                }
                OPEN.put(key, run);
            }
            run.joined.add(subtask);
            run.open.add(subtask);
            return run;
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

    /**
     * Writer {@code subtask}'s loader closes; before the end of its input that discards the
     * transaction. The other writers go on into it (their rows will not commit; the run fails, or
     * starts over, with the first writer's own error), and the last to close rolls it back.
     */
    void left(int subtask) {
        synchronized (OPEN) {
            open.remove(subtask);
            if (!finished.contains(subtask)) {
                discard();
            } else if (discarded && open.isEmpty()) {
                close();
            }
        }
    }

    /** Forgets the transaction, which no commit may take any more; rolled back once unused. */
    private void discard() {
        discarded = true;
        OPEN.remove(key, this);
        if (open.isEmpty()) {
            close();
        }
    }

    /**
     * The run's transaction for its commit, which every one of the run's {@code parallelism} writer
     * subtasks must have loaded into to the end; null when no writer of the run opened one.
     */
    static DuckDBConnection forCommit(
            DuckDbDatabase database, SqlSinkSettings settings, int parallelism) {
        Key key = key(database, settings);
        synchronized (OPEN) {
            RunTransaction run = OPEN.get(key);
            if (run == null) {
                return null;
            }
            Set<Integer> all = new TreeSet<>();
            for (int i = 0; i < parallelism; i++) {
                all.add(i);
            }
            if (!run.finished.equals(all)) {
                Set<Integer> lost = new TreeSet<>(all);
                lost.removeAll(run.finished);
                run.discard();
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
            return run.connection;
        }
    }

    /**
     * Forgets the run's transaction after its commit (done or failed), rolling back what is left.
     */
    static void end(DuckDbDatabase database, SqlSinkSettings settings) {
        synchronized (OPEN) {
            RunTransaction run = OPEN.remove(key(database, settings));
            if (run != null) {
                run.close();
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
