package io.skippr.core.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;
import org.postgresql.Driver;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * How Skippr reaches a PostgreSQL server, as its source and as its sink: one place for sslmode,
 * timeouts, keep-alive and the application name. The password goes only to the driver.
 */
public final class PgDataSources {
    private static final int CONNECT_TIMEOUT_SECONDS = 30;
    private static final Driver DRIVER = new Driver();

    private PgDataSources() {}

    /**
     * What a failed TLS check means, for a connection error's message: "" when {@code message} is
     * about something else. Java's own words (PKIX path building failed) say nothing to most users.
     */
    public static String tlsHint(String message, String sslrootcert) {
        String rootCert =
                sslrootcert == null
                        ? "~/.postgresql/root.crt, used when sslrootcert is not set"
                        : sslrootcert;
        if (message.contains("PKIX path building failed")
                || message.contains("unable to find valid certification path")) {
            return ". The server's certificate is not signed by the CA in sslrootcert ("
                    + rootCert
                    + ")";
        }
        if (message.contains("could not be verified by hostnameverifier")) {
            return ". The server's certificate does not name the host Skippr connected to:"
                    + " connect by a name the certificate holds, or use sslmode verify-ca";
        }
        if (message.contains("root certificate file")) {
            return ". Set sslrootcert to the file of the CA that signed the server's certificate";
        }
        return "";
    }

    /**
     * A data source for the server; {@code sslmode} null means libpq's default, prefer. {@code
     * sslrootcert} is the CA certificate file that verify-ca and verify-full check the server's
     * certificate against; null means libpq's default, {@code ~/.postgresql/root.crt}.
     */
    public static PGSimpleDataSource of(
            String host,
            int port,
            String database,
            String user,
            String password,
            String sslmode,
            String sslrootcert) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {host});
        ds.setPortNumbers(new int[] {port});
        ds.setDatabaseName(database);
        ds.setUser(user);
        if (password != null) {
            ds.setPassword(password);
        }
        ds.setSslMode(sslmode == null ? "prefer" : sslmode);
        if (sslrootcert != null) {
            ds.setSslRootCert(sslrootcert);
        }
        ds.setApplicationName("skippr");
        ds.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
        ds.setLoginTimeout(CONNECT_TIMEOUT_SECONDS);
        ds.setTcpKeepAlive(true);
        return ds;
    }

    /**
     * Opens a connection to {@code ds}'s server through pgjdbc's driver itself. {@code
     * ds.getConnection()} would ask {@link java.sql.DriverManager}, whose first use loads and
     * initialises every JDBC driver on the class path (Snowflake's, Redshift's, SQL Server's,
     * DuckDB's...): about half a second of every run's start-up.
     */
    public static Connection connect(PGSimpleDataSource ds) throws SQLException {
        Properties info = new Properties();
        if (ds.getUser() != null) {
            info.setProperty("user", ds.getUser());
        }
        if (ds.getPassword() != null) {
            info.setProperty("password", ds.getPassword());
        }
        Connection connection = DRIVER.connect(ds.getUrl(), info);
        if (connection == null) {
            throw new SQLException("pgjdbc refused its own URL " + ds.getUrl());
        }
        return connection;
    }
}
