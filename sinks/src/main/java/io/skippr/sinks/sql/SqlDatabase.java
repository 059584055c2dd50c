package io.skippr.sinks.sql;

import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A SQL destination as the shared sink code needs it: connections, its dialect, its staging loader
 * and its error messages. Serializable: it travels with the job graph; it holds the password but
 * never prints it.
 */
public interface SqlDatabase extends Serializable {
    SqlDialect dialect();

    /** A new connection in auto-commit mode; a failure names the server, never the password. */
    Connection connect() throws IOException;

    /** The loader that fills staging tables over {@code connection}. */
    StagingLoader loader(Connection connection) throws IOException;

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
     * Finishes what earlier runs of this pipeline and sink left prepared: commits the prepared
     * transactions of a run with a committed marker row, rolls back the others. Runs before a
     * bounded run reads its committed positions or picks its run number.
     */
    default void finishLeftPrepared(Connection connection, SqlSinkSettings settings)
            throws SQLException {}

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

    /** The server, database and user, for messages. */
    String describe();
}
