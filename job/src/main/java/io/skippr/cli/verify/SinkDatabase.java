package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.job.Connectors;
import io.skippr.sinks.sql.LoadsTable;
import io.skippr.sinks.sql.MarkerTable;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlReadBack;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.WriteMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * A pipeline's Postgres, DuckDB, Redshift, Snowflake or BigQuery data sink, read in one transaction
 * where it has them (see {@link VerifyCommand#readOnly}): the destination {@code verify} compares
 * and {@code history} reads loads from.
 */
final class SinkDatabase implements AutoCloseable {
    private final Connection connection;
    private final SqlDatabase database;
    private final Canonical.Dialect dialect;
    private final SqlDialect sql;
    private final String schema;
    private final String sink;

    private SinkDatabase(
            Connection connection,
            SqlDatabase database,
            Canonical.Dialect dialect,
            SqlDialect sql,
            String schema,
            String sink) {
        this.connection = connection;
        this.database = database;
        this.dialect = dialect;
        this.sql = sql;
        this.schema = schema;
        this.sink = sink;
    }

    /**
     * Opens data sink {@code settings} of kind {@code kind} (Postgres, DuckDB, Redshift or
     * Snowflake or BigQuery) of {@code pipeline}; a DuckDB file that does not exist yet, or one
     * another process holds, is a usage error.
     */
    static SinkDatabase open(String pipeline, ResolvedSettings settings, String kind)
            throws SQLException {
        requireFile(pipeline, settings, kind);
        SqlReadBack readBack = (SqlReadBack) Connectors.sink(kind);
        SqlDatabase database = readBack.readOnly(settings);
        Canonical.Dialect dialect = dialect(kind);
        Connection c = VerifyCommand.open(database::connect, "data sink");
        try {
            VerifyCommand.readOnly(c, dialect);
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
        return new SinkDatabase(
                c,
                database,
                dialect,
                database.dialect(),
                readBack.schema(settings),
                settings.entry().name());
    }

    private static Canonical.Dialect dialect(String kind) {
        return switch (kind) {
            case "DuckDB" -> Canonical.Dialect.DUCKDB;
            case "Redshift" -> Canonical.Dialect.REDSHIFT;
            case "Snowflake" -> Canonical.Dialect.SNOWFLAKE;
            case "BigQuery" -> Canonical.Dialect.BIGQUERY;
            default -> Canonical.Dialect.POSTGRES;
        };
    }

    /** A DuckDB data sink's file must exist: verify and history never create one. */
    static void requireFile(String pipeline, ResolvedSettings settings, String kind) {
        if (dialect(kind) == Canonical.Dialect.DUCKDB
                && !Files.exists(Path.of(settings.requireString("path")))) {
            throw new UsageException(
                    "the DuckDB database "
                            + Path.of(settings.requireString("path"))
                            + " does not exist yet; run skipprd sync --pipeline "
                            + pipeline
                            + " --once first");
        }
    }

    Destination destination() {
        return Destination.sql(connection, dialect, sql, schema);
    }

    /**
     * Per stream, the position pipeline {@code pipeline} committed here, where its next run starts
     * (empty in replace mode), read in the transaction the destination's rows are read in: the
     * positions and the rows are of one snapshot.
     */
    Map<String, String> positions(String pipeline, WriteMode mode) throws SQLException {
        if (mode == WriteMode.REPLACE) {
            return Map.of();
        }
        return new MarkerTable(new SqlSinkSettings(pipeline, sink, schema, 0, true, mode, database))
                .positions(connection);
    }

    Canonical.Dialect dialect() {
        return dialect;
    }

    /** The {@code _skippr_loads} table, quoted and qualified. */
    String loadsTable() {
        return sql.qualified(schema, LoadsTable.NAME);
    }

    /** Whether the sink has recorded loads: its {@code _skippr_loads} table exists. */
    boolean recordsLoads() throws SQLException {
        return sql.columns(connection, schema, LoadsTable.NAME) != null;
    }

    /** The data sink's name, as its loads record it. */
    String sink() {
        return sink;
    }

    Reader reader() {
        return Reader.jdbc(connection);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
