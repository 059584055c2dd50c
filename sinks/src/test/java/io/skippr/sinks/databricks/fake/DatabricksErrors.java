package io.skippr.sinks.databricks.fake;

import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The backing PostgreSQL's errors as Databricks reports the same faults: a NULL in a NOT NULL
 * column, a missing table or column, a column declared twice, a malformed value for a type, a
 * division by zero, a MERGE source row matching a target row twice and a syntax error keep
 * Databricks' error class, message and SQL state; any other error keeps PostgreSQL's SQL state
 * under the class {@code FAKE_DATABRICKS_BACKING_ERROR}, marked as coming from the fake.
 */
final class DatabricksErrors {
    private static final Pattern QUOTED = Pattern.compile("\"([^\"]*)\"");
    private static final Pattern INPUT =
            Pattern.compile("invalid input syntax for type ([a-z ]+): \"(.*)\"");

    private DatabricksErrors() {}

    static DatabricksError of(SQLException e) {
        String state = e.getSQLState() == null ? "XX000" : e.getSQLState();
        String message =
                e.getMessage() == null ? "" : e.getMessage().lines().findFirst().orElse("");
        if (message.startsWith("ERROR: ")) {
            message = message.substring("ERROR: ".length());
        }
        String name = first(message);
        return switch (state) {
            case "23502" -> DatabricksError.notNull(name);
            case "42P01" -> DatabricksError.tableNotFound(DatabricksError.display(name));
            case "42703" ->
                    new DatabricksError(
                            "UNRESOLVED_COLUMN.WITHOUT_SUGGESTION",
                            "42703",
                            "A column, variable, or function parameter with name "
                                    + DatabricksError.display(name)
                                    + " cannot be resolved.");
            case "22P02", "22007", "22008" -> {
                Matcher m = INPUT.matcher(message);
                yield new DatabricksError(
                        "CAST_INVALID_INPUT",
                        "22018",
                        m.find()
                                ? "The value '"
                                        + m.group(2)
                                        + "' of the type \"STRING\" cannot be cast to \""
                                        + deltaType(m.group(1))
                                        + "\" because it is malformed. Correct the value as per the"
                                        + " syntax, or change its target type. Use `try_cast` to"
                                        + " tolerate malformed input and return NULL instead."
                                : "A value cannot be cast because it is malformed ("
                                        + message
                                        + ").");
            }
            case "22012" ->
                    new DatabricksError(
                            "DIVIDE_BY_ZERO",
                            "22012",
                            "Division by zero. Use `try_divide` to tolerate divisor being 0 and"
                                    + " return NULL instead. If necessary set"
                                    + " \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.");
            case "21000" ->
                    message.contains("MERGE")
                            ? new DatabricksError(
                                    "DELTA_MULTIPLE_SOURCE_ROW_MATCHING_TARGET_ROW_IN_MERGE",
                                    "21506",
                                    "Cannot perform Merge as multiple source rows matched and"
                                            + " attempted to modify the same target row in the Delta"
                                            + " table in possibly conflicting ways. By SQL semantics of"
                                            + " Merge, when multiple source rows match on the same"
                                            + " target row, the result may be ambiguous as it is"
                                            + " unclear which source row should be used to update or"
                                            + " delete the matching target row. You can preprocess the"
                                            + " source table to eliminate the possibility of multiple"
                                            + " matches. Please refer to"
                                            + " https://docs.databricks.com/delta/merge.html")
                            : backing(state, message);
            case "42601" -> DatabricksError.syntax("'" + message + "'");
            case "42701" ->
                    new DatabricksError(
                            "COLUMN_ALREADY_EXISTS",
                            "42711",
                            "The column "
                                    + DatabricksError.display(name)
                                    + " already exists. Choose another name or rename the existing"
                                    + " column.");
            default -> backing(state, message);
        };
    }

    private static DatabricksError backing(String state, String message) {
        return new DatabricksError(
                "FAKE_DATABRICKS_BACKING_ERROR",
                state,
                "fake Databricks: the backing PostgreSQL refused the statement: " + message);
    }

    private static String deltaType(String pgType) {
        return switch (pgType) {
            case "bigint" -> "BIGINT";
            case "integer" -> "INT";
            case "smallint" -> "SMALLINT";
            case "numeric" -> "DECIMAL";
            case "double precision" -> "DOUBLE";
            case "real" -> "FLOAT";
            case "boolean" -> "BOOLEAN";
            case "date" -> "DATE";
            case "timestamp with time zone" -> "TIMESTAMP";
            case "timestamp without time zone" -> "TIMESTAMP_NTZ";
            default -> pgType.toUpperCase(java.util.Locale.ROOT);
        };
    }

    private static String first(String message) {
        Matcher m = QUOTED.matcher(message);
        return m.find() ? m.group(1) : message;
    }
}
