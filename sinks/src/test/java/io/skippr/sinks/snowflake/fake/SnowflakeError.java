package io.skippr.sinks.snowflake.fake;

/**
 * An error the fake answers as Snowflake does: a message, Snowflake's numeric code (as the driver
 * reports it from {@code SQLException.getErrorCode()}) and a SQL state.
 */
final class SnowflakeError extends Exception {
    final int code;
    final String sqlState;

    SnowflakeError(int code, String sqlState, String message) {
        super(message);
        this.code = code;
        this.sqlState = sqlState;
    }

    /** What the fake does not implement: refused, never answered with a silent success. */
    static SnowflakeError unsupported(String what) {
        return new SnowflakeError(
                2,
                "0A000",
                "Unsupported feature '" + what + "' (not implemented by the fake Snowflake).");
    }

    static SnowflakeError compilation(String message) {
        return new SnowflakeError(1003, "42000", "SQL compilation error:\n" + message);
    }

    static SnowflakeError notFound(String kind, String name) {
        return new SnowflakeError(
                2003,
                "42S02",
                "SQL compilation error:\n"
                        + kind
                        + " '"
                        + name
                        + "' does not exist or not authorized.");
    }
}
