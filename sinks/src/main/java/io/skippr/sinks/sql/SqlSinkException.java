package io.skippr.sinks.sql;

/**
 * A SQL destination refused what the sink needs: unreachable, wrong password, a missing privilege,
 * a table the stream cannot be loaded into. The message says what is missing and never holds a
 * secret.
 */
public class SqlSinkException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SqlSinkException(String message, Throwable cause) {
        super(message, cause);
    }

    public SqlSinkException(String message) {
        super(message);
    }
}
