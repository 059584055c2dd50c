package io.skippr.core.postgres;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * How Skippr reaches a PostgreSQL server, as its source and as its sink: one place for sslmode,
 * timeouts, keep-alive and the application name. The password goes only to the driver.
 */
public final class PgDataSources {
    private static final int CONNECT_TIMEOUT_SECONDS = 30;

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
}
