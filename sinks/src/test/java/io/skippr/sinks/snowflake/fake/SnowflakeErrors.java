package io.skippr.sinks.snowflake.fake;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The backing PostgreSQL's errors as Snowflake reports the same faults: its message and code for a
 * missing or existing object, an unknown column, a NULL in a NOT NULL column, a string too long and
 * a cancelled statement; any other error keeps PostgreSQL's message and SQL state, marked as coming
 * from the fake.
 */
final class SnowflakeErrors {
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");

    private SnowflakeErrors() {}

    static SnowflakeError of(SQLException e) {
        String state = e.getSQLState() == null ? "XX000" : e.getSQLState();
        String message =
                e.getMessage() == null
                        ? ""
                        : BackingNames.originals(e.getMessage().lines().findFirst().orElse(""));
        String name = first(message);
        return switch (state) {
            case "42P01" -> SnowflakeError.notFound("Object", name);
            case "3F000" -> SnowflakeError.notFound("Schema", name);
            case "42P07", "42P06" ->
                    new SnowflakeError(
                            2002,
                            "42710",
                            "SQL compilation error:\nObject '" + name + "' already exists.");
            case "42703" ->
                    new SnowflakeError(
                            904,
                            "42000",
                            "SQL compilation error:\ninvalid identifier '" + name + "'");
            case "23502" ->
                    new SnowflakeError(100072, "22000", "NULL result in a non-nullable column");
            case "22001" ->
                    new SnowflakeError(
                            100074,
                            "22000",
                            "String is too long and would be truncated (" + message + ")");
            case "57014" -> new SnowflakeError(604, "57014", "SQL execution canceled");
            case "42601" ->
                    new SnowflakeError(
                            1003,
                            "42000",
                            "SQL compilation error:\nsyntax error (" + message + ")");
            default ->
                    new SnowflakeError(
                            100000,
                            state,
                            "fake Snowflake: the backing PostgreSQL refused the statement: "
                                    + message);
        };
    }

    private static String first(String message) {
        Matcher m = QUOTED.matcher(message);
        return m.find() ? m.group(1) : message;
    }
}
