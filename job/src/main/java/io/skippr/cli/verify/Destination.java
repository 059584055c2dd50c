package io.skippr.cli.verify;

import io.skippr.sinks.clickhouse.ClickHouseReadBack;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sources.postgres.TableInfo;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * Where a data sink loaded a stream, named by the sink's own naming, and how verify reads it: one
 * implementation per way of reading back (a SQL sink over JDBC, ClickHouse over HTTP).
 */
interface Destination {
    Canonical.Dialect dialect();

    Reader reader();

    /** The documented differences of this destination that canonical texts apply. */
    Canonical.Form form();

    /** The stream's table as messages name it. */
    String table(String stream);

    /** The stream's table as queries read it. */
    default String readTable(String stream) {
        return table(stream);
    }

    /** The stream's table's columns and their types; null when it does not exist. */
    Map<String, String> columns(String stream) throws SQLException;

    /**
     * The columns of the table {@code source}'s stream loaded, for a destination that types them
     * from the source's schema (text files); null when it does not exist.
     */
    default Map<String, String> columns(TableInfo source) throws SQLException {
        return columns(source.stream());
    }

    /** The destination's name of a source column. */
    String column(String sourceColumn);

    String quote(String column);

    /** The type a bound is cast to for a column declared {@code declared}. */
    default String castType(String declared) {
        return declared;
    }

    /**
     * A Postgres, DuckDB, Redshift, Snowflake or BigQuery data sink, read over JDBC ({@link
     * io.skippr.sinks.sql.SqlReadBack}).
     */
    static Destination sql(
            Connection connection, Canonical.Dialect dialect, SqlDialect sql, String schema) {
        SqlNames names = sql.names();
        return new Destination() {
            @Override
            public Canonical.Dialect dialect() {
                return dialect;
            }

            @Override
            public Reader reader() {
                return Reader.jdbc(connection);
            }

            @Override
            public Canonical.Form form() {
                // DuckDB keeps JSON's text as given, Redshift's and Snowflake's VARCHAR too;
                // PostgreSQL's is jsonb
                return new Canonical.Form(
                        dialect != Canonical.Dialect.POSTGRES,
                        false,
                        false,
                        dialect == Canonical.Dialect.BIGQUERY);
            }

            @Override
            public String table(String stream) {
                return sql.qualified(schema, names.table(stream));
            }

            @Override
            public Map<String, String> columns(String stream) throws SQLException {
                return sql.columns(connection, schema, names.table(stream));
            }

            @Override
            public String column(String sourceColumn) {
                return names.column(sourceColumn);
            }

            @Override
            public String quote(String column) {
                return sql.quote(column);
            }
        };
    }

    /**
     * A ClickHouse data sink: read with {@code FINAL}, so the copies of a row sent again (same
     * {@code _skippr_id}, a ReplacingMergeTree's key) count once, merged or not.
     */
    static Destination clickHouse(ClickHouseReadBack database) {
        return new Destination() {
            @Override
            public Canonical.Dialect dialect() {
                return Canonical.Dialect.CLICKHOUSE;
            }

            @Override
            public Reader reader() {
                return Reader.clickHouse(database);
            }

            @Override
            public Canonical.Form form() {
                return new Canonical.Form(true, true);
            }

            @Override
            public String table(String stream) {
                return database.table(stream);
            }

            @Override
            public String readTable(String stream) {
                return database.table(stream) + " FINAL";
            }

            @Override
            public Map<String, String> columns(String stream) throws SQLException {
                try {
                    return database.columns(stream);
                } catch (InterruptedException e) {
                    throw Reader.interrupted(e);
                }
            }

            @Override
            public String column(String sourceColumn) {
                return sourceColumn; // source columns keep their names
            }

            @Override
            public String quote(String column) {
                return ClickHouseReadBack.quote(column);
            }

            @Override
            public String castType(String declared) {
                return declared.startsWith("Nullable(")
                        ? declared.substring("Nullable(".length(), declared.length() - 1)
                        : declared;
            }
        };
    }
}
