package io.skippr.sources.postgres;

import io.skippr.config.Secret;
import io.skippr.core.postgres.PgDataSources;
import io.skippr.core.postgres.PgErrors;
import java.io.IOException;
import java.io.Serializable;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Where and how to connect to PostgreSQL. It travels in the job graph with the password as a {@link
 * Secret} (its reference, never its value), revealed only to hand it to the driver in {@link
 * #connect()}: {@link #toString()} and every error message name host, port, database and user,
 * never the password.
 *
 * @param password null for none
 */
public record PostgresConnectionConfig(
        String host,
        int port,
        String database,
        String user,
        Secret password,
        String sslmode,
        String sslrootcert)
        implements Serializable {

    public PostgresConnectionConfig(
            String host, int port, String database, String user, Secret password, String sslmode) {
        this(host, port, database, user, password, sslmode, null);
    }

    /** The name a source's sessions have in {@code pg_stat_activity}. */
    static final String APPLICATION_NAME = "skippr-read";

    /** Opens a connection whose session prints values deterministically (UTC, ISO styles). */
    public Connection connect() throws IOException {
        PGSimpleDataSource ds =
                PgDataSources.of(
                        host,
                        port,
                        database,
                        user,
                        password == null ? null : password.reveal(),
                        sslmode,
                        sslrootcert);
        // Text transfer for queries; splits are read by a binary COPY (SplitQuery, BinaryValues)
        ds.setBinaryTransfer(false);
        // a source only reads: late-commit reads need not wait for these sessions (Snapshot)
        ds.setApplicationName(APPLICATION_NAME);
        Connection connection;
        try {
            connection = PgDataSources.connect(ds);
        } catch (SQLException e) {
            String message = String.valueOf(e.getMessage());
            throw new IOException(
                    "Could not connect to "
                            + describe()
                            + ": "
                            + message
                            + PgDataSources.tlsHint(message, sslrootcert),
                    PgErrors.cause(e));
        }
        try (Statement s = connection.createStatement()) {
            s.execute("SET TimeZone = 'UTC'");
            s.execute("SET IntervalStyle = 'postgres'");
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new IOException(
                    "Could not set up the session on " + describe() + ": " + e.getMessage(),
                    PgErrors.cause(e));
        }
        return connection;
    }

    /** {@code PostgreSQL at host:port, database "db", user "u"}: never the password. */
    public String describe() {
        return "PostgreSQL at "
                + host
                + ":"
                + port
                + ", database \""
                + database
                + "\", user \""
                + user
                + "\" (sslmode "
                + (sslmode == null ? "prefer" : sslmode)
                + ")";
    }

    @Override
    public String toString() {
        return describe();
    }

    public static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing after a failure: the original failure is what matters
        }
    }
}
