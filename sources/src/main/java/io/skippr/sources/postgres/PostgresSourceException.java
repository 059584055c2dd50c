package io.skippr.sources.postgres;

/**
 * A problem with what the Postgres data source was asked to read (a missing table or column, an
 * unusable cursor) or with reaching the server. The message says what and where; it never holds the
 * password.
 */
public class PostgresSourceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PostgresSourceException(String message) {
        super(message);
    }

    public PostgresSourceException(String message, Throwable cause) {
        super(message, cause);
    }
}
