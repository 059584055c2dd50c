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
