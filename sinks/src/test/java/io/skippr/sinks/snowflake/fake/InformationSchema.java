package io.skippr.sinks.snowflake.fake;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * Snowflake's {@code INFORMATION_SCHEMA} of the fake's one database, as views over PostgreSQL's
 * catalog in a schema of that (upper-case) name, so that statements naming {@code
 * INFORMATION_SCHEMA.SCHEMATA}, {@code .TABLES} or {@code .COLUMNS} reach them after the fake folds
 * the names. The views have Snowflake's column names and Snowflake's {@code DATA_TYPE} spellings
 * ({@code NUMBER}, {@code TEXT}, {@code FLOAT}, {@code BOOLEAN}, {@code DATE}, {@code TIME}, {@code
 * TIMESTAMP_NTZ}, {@code TIMESTAMP_TZ}, {@code VARIANT}, {@code BINARY}); {@code TEXT} columns
 * without a length report Snowflake's 16,777,216 and {@code BINARY} its 8,388,608. The fake's own
 * schemas and PostgreSQL's are not listed. Only these three views and these columns exist.
 */
final class InformationSchema {
    private InformationSchema() {}

    static void create(Statement st, String database) throws SQLException {
        String catalog = "'" + database + "'::text";
        String own =
                " NOT IN ('pg_catalog', 'pg_toast', 'information_schema', '_fake')"
                        + " AND %s NOT LIKE 'pg_temp%%' AND %s NOT LIKE 'pg_toast_temp%%'";
        st.execute("CREATE SCHEMA \"INFORMATION_SCHEMA\"");
        st.execute(
                "CREATE VIEW \"INFORMATION_SCHEMA\".\"SCHEMATA\" AS SELECT "
                        + catalog
                        + " AS \"CATALOG_NAME\", schema_name::text AS \"SCHEMA_NAME\""
                        + " FROM information_schema.schemata WHERE schema_name"
                        + String.format(own, "schema_name", "schema_name"));
        st.execute(
                "CREATE VIEW \"INFORMATION_SCHEMA\".\"TABLES\" AS SELECT "
                        + catalog
                        + " AS \"TABLE_CATALOG\", table_schema::text AS \"TABLE_SCHEMA\","
                        + " table_name::text AS \"TABLE_NAME\", table_type::text AS \"TABLE_TYPE\""
                        + " FROM information_schema.tables WHERE table_schema"
                        + String.format(own, "table_schema", "table_schema"));
        st.execute(
                "CREATE VIEW \"INFORMATION_SCHEMA\".\"COLUMNS\" AS SELECT "
                        + catalog
                        + " AS \"TABLE_CATALOG\", table_schema::text AS \"TABLE_SCHEMA\","
                        + " table_name::text AS \"TABLE_NAME\", column_name::text AS"
                        + " \"COLUMN_NAME\", ordinal_position::bigint AS \"ORDINAL_POSITION\","
                        + " is_nullable::text AS \"IS_NULLABLE\","
                        + " (CASE udt_name WHEN 'numeric' THEN 'NUMBER' WHEN 'int2' THEN 'NUMBER'"
                        + " WHEN 'int4' THEN 'NUMBER' WHEN 'int8' THEN 'NUMBER'"
                        + " WHEN 'float4' THEN 'FLOAT' WHEN 'float8' THEN 'FLOAT'"
                        + " WHEN 'varchar' THEN 'TEXT' WHEN 'text' THEN 'TEXT' WHEN 'bpchar' THEN"
                        + " 'TEXT' WHEN 'bool' THEN 'BOOLEAN' WHEN 'date' THEN 'DATE'"
                        + " WHEN 'time' THEN 'TIME' WHEN 'timestamp' THEN 'TIMESTAMP_NTZ'"
                        + " WHEN 'timestamptz' THEN 'TIMESTAMP_TZ' WHEN 'jsonb' THEN 'VARIANT'"
                        + " WHEN 'bytea' THEN 'BINARY' ELSE upper(udt_name::text) END)::text"
                        + " AS \"DATA_TYPE\","
                        + " (CASE WHEN udt_name IN ('varchar', 'text', 'bpchar') THEN"
                        + " coalesce(character_maximum_length, 16777216)"
                        + " WHEN udt_name = 'bytea' THEN 8388608 END)::bigint"
                        + " AS \"CHARACTER_MAXIMUM_LENGTH\","
                        + " (CASE WHEN udt_name = 'numeric' THEN coalesce(numeric_precision, 38)"
                        + " WHEN udt_name IN ('int2', 'int4', 'int8') THEN 38 END)::bigint"
                        + " AS \"NUMERIC_PRECISION\","
                        + " (CASE WHEN udt_name = 'numeric' THEN coalesce(numeric_scale, 0)"
                        + " WHEN udt_name IN ('int2', 'int4', 'int8') THEN 0 END)::bigint"
                        + " AS \"NUMERIC_SCALE\""
                        + " FROM information_schema.columns WHERE table_schema"
                        + String.format(own, "table_schema", "table_schema"));
    }
}
