package io.skippr.sinks.databricks.fake;

/**
 * A statement's failure as Databricks reports it in {@code status.error} and {@code
 * status.sql_state}: an error class and its message, rendered {@code [CLASS] message SQLSTATE:
 * xxxxx}, under a service error code ({@code BAD_REQUEST} for what the statement asked).
 */
final class DatabricksError extends Exception {
    final String errorClass;
    final String sqlState;
    final String errorCode;

    DatabricksError(String errorClass, String sqlState, String message) {
        this("BAD_REQUEST", errorClass, sqlState, message);
    }

    DatabricksError(String errorCode, String errorClass, String sqlState, String message) {
        super("[" + errorClass + "] " + message + " SQLSTATE: " + sqlState);
        this.errorCode = errorCode;
        this.errorClass = errorClass;
        this.sqlState = sqlState;
    }

    /** What the fake does not implement: refused, never answered with a silent success. */
    static DatabricksError unsupported(String what) {
        return new DatabricksError(
                "UNSUPPORTED_FEATURE.FAKE_DATABRICKS",
                "0A000",
                "The feature is not supported: "
                        + what
                        + " (not implemented by the fake Databricks).");
    }

    static DatabricksError syntax(String near) {
        return new DatabricksError(
                "PARSE_SYNTAX_ERROR", "42601", "Syntax error at or near " + near + ".");
    }

    static DatabricksError tableNotFound(String name) {
        return new DatabricksError(
                "TABLE_OR_VIEW_NOT_FOUND",
                "42P01",
                "The table or view "
                        + name
                        + " cannot be found. Verify the spelling and correctness of the schema and"
                        + " catalog.\nIf you did not qualify the name with a schema, verify the"
                        + " current_schema() output, or qualify the name with the correct schema and"
                        + " catalog.\nTo tolerate the error on drop use DROP VIEW IF EXISTS or DROP"
                        + " TABLE IF EXISTS.");
    }

    static DatabricksError tableExists(String name) {
        return new DatabricksError(
                "TABLE_OR_VIEW_ALREADY_EXISTS",
                "42P07",
                "Cannot create table or view "
                        + name
                        + " because it already exists.\nChoose a different name, drop or replace the"
                        + " existing object, or add the IF NOT EXISTS clause to tolerate pre-existing"
                        + " objects.");
    }

    static DatabricksError schemaNotFound(String name) {
        return new DatabricksError(
                "SCHEMA_NOT_FOUND",
                "42704",
                "The schema "
                        + name
                        + " cannot be found. Verify the spelling and correctness of the schema and"
                        + " catalog.\nIf you did not qualify the name with a catalog, verify the"
                        + " current_schema() output, or qualify the name with the correct catalog.\nTo"
                        + " tolerate the error on drop use DROP SCHEMA IF EXISTS.");
    }

    static DatabricksError schemaExists(String name) {
        return new DatabricksError(
                "SCHEMA_ALREADY_EXISTS",
                "42P06",
                "Cannot create schema "
                        + name
                        + " because it already exists.\nChoose a different name, drop the existing"
                        + " schema, or add the IF NOT EXISTS clause to tolerate pre-existing schema.");
    }

    static DatabricksError catalogNotFound(String name) {
        return new DatabricksError(
                "NO_SUCH_CATALOG_EXCEPTION", "42704", "Catalog '" + name + "' was not found.");
    }

    static DatabricksError catalogExists(String name) {
        return new DatabricksError(
                "CATALOG_ALREADY_EXISTS",
                "42P04",
                "Cannot create catalog " + name + " because it already exists.");
    }

    static DatabricksError volumeNotFound(String name) {
        return new DatabricksError(
                "VOLUME_NOT_FOUND", "42704", "The volume " + name + " cannot be found.");
    }

    static DatabricksError volumeExists(String name) {
        return new DatabricksError(
                "VOLUME_ALREADY_EXISTS",
                "42000",
                "Cannot create volume " + name + " because it already exists.");
    }

    static DatabricksError notNull(String column) {
        return new DatabricksError(
                "DELTA_NOT_NULL_CONSTRAINT_VIOLATED",
                "23502",
                "NOT NULL constraint violated for column: " + column + ".");
    }

    static DatabricksError unboundParameter(String name) {
        return new DatabricksError(
                "UNBOUND_SQL_PARAMETER",
                "42P02",
                "Found the unbound parameter: "
                        + name
                        + ". Please, fix `args` and provide a mapping of the parameter to either a SQL"
                        + " literal or collection constructor functions such as `map()`, `array()`,"
                        + " `struct()`.");
    }

    /** {@code `a`.`b`}: names as Databricks prints them in messages. */
    static String display(String... parts) {
        StringBuilder out = new StringBuilder();
        for (String p : parts) {
            if (out.length() > 0) {
                out.append('.');
            }
            out.append('`').append(p.replace("`", "``")).append('`');
        }
        return out.toString();
    }
}
