package io.skippr.sinks.sql;

import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.function.Predicate;

/**
 * A SQL destination as the shared sink code needs it: connections, its dialect, its staging loader
 * and its error messages. Serializable: it travels with the job graph; it holds the password but
 * never prints it.
 */
public interface SqlDatabase extends Serializable {
    SqlDialect dialect();

    /** A new connection in auto-commit mode; a failure names the server, never the password. */
    Connection connect() throws IOException;

    /** Where writers keep rows until the commit: staging tables unless the database says so. */
    default Staging staging() {
        return StagingTables.INSTANCE;
    }

    /** The loader that fills staging tables over {@code connection}. */
    StagingLoader loader(Connection connection) throws IOException;

    /**
     * The connection a commit of {@code committables} runs on: {@code own}, or, for a bounded run
     * whose writers loaded into one open transaction ({@link SqlCommittable.Kind#HELD}, DuckDB),
     * that transaction's, which the commit continues and commits.
     */
    default Connection committing(
            Connection own, SqlSinkSettings settings, List<SqlCommittable> committables)
            throws SQLException {
        return own;
    }

    /** After the commit on {@code used} (done or failed): ends what {@link #committing} opened. */
    default void committed(Connection used, Connection own, SqlSinkSettings settings) {}

    /**
     * The loader for writer {@code subtask} of a run with {@code settings}: by default {@link
     * #loader(Connection)}; a database with a faster path for some runs (PostgreSQL: COPY into the
     * target inside a prepared transaction) returns that where it applies.
     */
    default StagingLoader loader(Connection connection, SqlSinkSettings settings, int subtask)
            throws IOException {
        return loader(connection);
    }

    /**
     * Whether the prepared transaction {@code gid} (of a loader's {@link StagingLoader#preparedAs})
     * still waits for its commit.
     */
    default boolean isPrepared(Connection connection, String gid) throws SQLException {
        return false;
    }

    /**
     * Commits ({@code commit}) or rolls back the prepared transaction {@code gid}, outside any
     * transaction; returns false if it is not prepared (any more).
     */
    default boolean finishPrepared(Connection connection, String gid, boolean commit)
            throws SQLException {
        throw new UnsupportedOperationException(describe() + " has no prepared transactions");
    }

    /**
     * The id under which a bounded run's commit prepares its own transaction when its writers
     * prepared theirs (see {@code CommitTransaction}).
     */
    default String preparedCommitId(SqlSinkSettings settings, long run) {
        throw new UnsupportedOperationException(describe() + " has no prepared transactions");
    }

    /** Prepares the transaction open on {@code connection} as {@code gid}, which ends it. */
    default void prepare(Connection connection, String gid) throws SQLException {
        throw new UnsupportedOperationException(describe() + " has no prepared transactions");
    }

    /**
     * Takes ({@code lock}) or releases the lock, held by the connection's session, under which the
     * prepared transactions of this pipeline and sink are committed or rolled back, so that no two
     * processes finish them at once; outside any transaction.
     */
    default void lockPrepared(Connection connection, SqlSinkSettings settings, boolean lock)
            throws SQLException {}

    /**
     * Finishes what earlier runs of this pipeline and sink left prepared: commits the prepared
     * transactions of a run with a committed marker row, rolls back the others. Runs before a
     * bounded run reads its committed positions or picks its run number.
     */
    default void finishLeftPrepared(Connection connection, SqlSinkSettings settings)
            throws SQLException {}

    /**
     * Rolls back the prepared transactions of continuous runs of this pipeline and sink that {@code
     * unheld} says no checkpoint holds (a writer's start); outside any transaction.
     */
    default void rollBackUnheld(
            Connection connection,
            SqlSinkSettings settings,
            Predicate<SqlStagingWriter.StagingMeta> unheld)
            throws SQLException {}

    /**
     * Moves the rows of this pipeline and sink's owed staging tables ({@link
     * SqlStagingWriter#owedTables}: their checkpoint committed, their target needed DDL) into their
     * targets, evolving each target first, and creates or evolves the targets of {@code schemas}
     * too: one transaction per target, which gives up, changing nothing, where another transaction
     * holds a lock on the target or an owed table (a prepared one holds them until its COMMIT
     * PREPARED). Safe to repeat and to run from several processes. Runs in auto-commit and leaves
     * the connection so.
     *
     * @return the schemas of {@code schemas} whose target it could not lock, to try again later
     */
    default List<StreamSchema> settleOwed(
            Connection connection, SqlSinkSettings settings, List<StreamSchema> schemas)
            throws SQLException {
        return schemas;
    }

    /**
     * Fails with a message naming the privilege the role lacks to create and load tables in {@code
     * schema} (the GRANT to run), or returns if it has them all.
     */
    void checkAccess(Connection connection, String schema) throws IOException;

    /**
     * {@code e} as a message that says what failed while {@code doing} and, for a missing
     * privilege, which one; never a secret.
     */
    IOException failure(String doing, SQLException e);

    /**
     * Whether repeating the transaction may succeed: deadlock, serialization or lost connection.
     */
    boolean retriable(SQLException e);

    /**
     * Whether {@code e} is the destination refusing rows (a constraint, a trigger, a value it will
     * not take), as opposed to a failure that is not about the rows.
     */
    default boolean refusesRows(SQLException e) {
        return false;
    }

    /** The destination's own words for why it refused a row: the first line of its message. */
    default String refusal(SQLException e) {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).trim();
    }

    /**
     * Starts a probe's transaction: bounds how long it waits for a lock (a commit in flight may
     * hold one), so the probe gives up rather than stall the writer.
     */
    default void beginProbe(Connection c) throws SQLException {}

    /** The server, database and user, for messages. */
    String describe();
}
