package io.skippr.sinks.clickhouse;

/**
 * A problem reaching or using the ClickHouse server: unreachable, refused login, a failed
 * statement. The message names the server and the user, never the password.
 */
public class ClickHouseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ClickHouseException(String message) {
        super(message);
    }

    public ClickHouseException(String message, Throwable cause) {
        super(message, cause);
    }
}
