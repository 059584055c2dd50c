package io.skippr.sinks.sql;

import java.io.IOException;

/**
 * A database statement failed, explained: what was being done, on which server, and what is missing
 * (a privilege as the GRANT that cures it). {@link SqlDatabase#failure} returns it, so the CLI
 * shows this message rather than the driver's.
 */
public class SqlFailureException extends IOException {
    private static final long serialVersionUID = 1L;

    public SqlFailureException(String message, Throwable cause) {
        super(message, cause);
    }

    public SqlFailureException(String message) {
        super(message);
    }
}
