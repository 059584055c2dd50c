package io.skippr.core.postgres;

import org.postgresql.ds.PGSimpleDataSource;

/**
 * How Skippr reaches a PostgreSQL server, as its source and as its sink: one place for sslmode,
 * timeouts, keep-alive and the application name. The password goes only to the driver.
 */
public final class PgDataSources {
    private static final int CONNECT_TIMEOUT_SECONDS = 30;

    private PgDataSources() {}

    /** A data source for the server; {@code sslmode} null means libpq's default, prefer. */
    public static PGSimpleDataSource of(
            String host, int port, String database, String user, String password, String sslmode) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {host});
        ds.setPortNumbers(new int[] {port});
        ds.setDatabaseName(database);
        ds.setUser(user);
        if (password != null) {
            ds.setPassword(password);
        }
        ds.setSslMode(sslmode == null ? "prefer" : sslmode);
        ds.setApplicationName("skippr");
        ds.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
        ds.setLoginTimeout(CONNECT_TIMEOUT_SECONDS);
        ds.setTcpKeepAlive(true);
        return ds;
    }
}
