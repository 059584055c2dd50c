package io.skippr.sinks.duckdb;

import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.duckdb.DuckDBConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
 * <p>A writer subtask that fails leaves its rows in the transaction, and Flink's batch recovery
 * (region failover) starts it again alone: the new attempt reads its splits again and appends their
 * rows again, with the same {@code _skippr_id}s (deterministic from each row's source position).
 * Before the commit, each target keeps one row per {@code _skippr_id} of the rows this transaction
 * appended (those above the {@code rowid} the target had when its first appender opened), the last
 * appended: the other writers' rows, which Flink does not load again, stay. Only a failure that
 * broke the DuckDB transaction itself (DuckDB then refuses every statement in it) discards it, rows
 * of every subtask with it; the next joiner opens a new one, and the commit finds only the subtasks
 * that loaded into the new one and refuses to commit part of the run ({@link #forCommit}).
 */
final class RunTransaction {
    private static final Logger LOG = LoggerFactory.getLogger(RunTransaction.class);
    private static final Map<Key, RunTransaction> OPEN = new HashMap<>();

    private record Key(String url, String pipeline, String sink, String schema, long run) {
        boolean sameSink(Key other) {
            return url.equals(other.url)
                    && pipeline.equals(other.pipeline)
                    && sink.equals(other.sink)
                    && schema.equals(other.schema);
        }
    }

    private final Key key;
    private final Connection handle;
    private final DuckDBConnection connection;
    private final Set<Integer> joined = new TreeSet<>();
    private final Set<Integer> finished = new TreeSet<>();
    private final Set<Integer> open = new TreeSet<>(); // writers whose loader is not closed yet
    private final Set<String> appending = new HashSet<>();
    private final Set<Integer> restarted = new TreeSet<>();
    // per target appended to (quoted and qualified), its highest rowid before this transaction
    private final Map<String, Long> appendedAbove = new HashMap<>();
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
            discardAbandoned(key);
            RunTransaction run = OPEN.get(key);
            if (run != null && run.joined.contains(subtask)) { // started again after a failure
                if (run.usable()) {
                    run.restarted.add(subtask); // its first attempt's rows go at the commit
                    run.finished.remove(subtask);
                    LOG.info(
                            "Writer subtask {} of bounded run {} started again: the rows its"
                                    + " earlier attempt appended to {} are removed before the"
                                    + " commit",
                            subtask,
                            settings.run(),
                            database.describe());
                } else {
                    run.discard();
                    run = null;
                }
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

    /**
     * A writer opens an appender on {@code target} ({@code qualified}, quoted): the first one notes
     * the highest rowid it has, above which DuckDB numbers the rows this transaction appends.
     */
    synchronized void appendingTo(String target, String qualified) throws SQLException {
        appending.add(target);
        if (!appendedAbove.containsKey(qualified)) {
            try (Statement st = connection.createStatement();
                    ResultSet rs =
                            st.executeQuery("SELECT coalesce(max(rowid), -1) FROM " + qualified)) {
                rs.next();
                appendedAbove.put(qualified, rs.getLong(1));
            }
        }
    }

    /** Writer {@code subtask} has loaded all of its input. */
    void finished(int subtask) {
        synchronized (OPEN) {
            finished.add(subtask);
        }
    }

    /**
     * Writer {@code subtask}'s loader closes. Before the end of its input, it failed: its rows stay
     * for its next attempt to replace, unless DuckDB broke the transaction, which is then discarded
     * (the other writers go on into it, their rows will not commit, and the last to close rolls it
     * back).
     */
    void left(int subtask) {
        synchronized (OPEN) {
            open.remove(subtask);
            if (!discarded && !finished.contains(subtask) && !usable()) {
                discard();
            } else if (discarded && open.isEmpty()) {
                close();
            }
        }
    }

    /** Whether DuckDB still takes statements in the transaction: an error in it aborts it. */
    private boolean usable() {
        try (Statement st = connection.createStatement()) {
            st.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Discards the transactions of earlier runs into the same sink that no writer uses any more:
     * their run failed for good, and no commit will take them.
     */
    private static void discardAbandoned(Key key) {
        for (RunTransaction other : List.copyOf(OPEN.values())) {
            if (other.key.run != key.run && other.key.sameSink(key) && other.open.isEmpty()) {
                other.discard();
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
            DuckDbDatabase database, SqlSinkSettings settings, int parallelism)
            throws SQLException {
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
                                + " are not in it: an error inside that transaction made"
                                + " DuckDB roll it back, with what every writer subtask had"
                                + " loaded, and a writer subtask started again in a new one."
                                + " Nothing of the run was committed; run the pipeline again");
            }
            if (!run.restarted.isEmpty()) {
                run.dropEarlierAttempts(database);
            }
            return run.connection;
        }
    }

    /**
     * Keeps, in each target, one of the rows this transaction appended per {@code _skippr_id}: the
     * last appended, which is the restarted attempt's.
     */
    private void dropEarlierAttempts(DuckDbDatabase database) throws SQLException {
        String id = database.dialect().quote(SqlNames.ID);
        long dropped = 0;
        try (Statement st = connection.createStatement()) {
            for (Map.Entry<String, Long> target : appendedAbove.entrySet()) {
                dropped +=
                        st.executeUpdate(
                                "DELETE FROM "
                                        + target.getKey()
                                        + " WHERE rowid IN (SELECT rowid FROM (SELECT rowid,"
                                        + " row_number() OVER (PARTITION BY "
                                        + id
                                        + " ORDER BY rowid DESC) AS copy FROM "
                                        + target.getKey()
                                        + " WHERE rowid > "
                                        + target.getValue()
                                        + ") WHERE copy > 1)");
            }
        }
        LOG.info(
                "Bounded run {}: removed {} rows appended by the earlier attempts of writer"
                        + " subtasks {}",
                key.run,
                dropped,
                restarted);
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
