package io.skippr.sinks.databricks;

import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.staged.StagedFileLoader;
import io.skippr.sinks.staged.StagedFiles;
import io.skippr.sinks.staged.StagedLayout;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A Databricks SQL warehouse as the staged-load family uses it: statements through the Statement
 * Execution API ({@link StatementConnection}), rows staged as Parquet ({@link DatabricksParquet})
 * in a Unity Catalog volume of the target schema ({@link VolumeStage}, created if absent) and
 * loaded by {@code COPY INTO} ({@link DatabricksCopy}). The token is only sent in a header: {@link
 * #toString()} and every message name the workspace, warehouse, catalog and volume.
 */
public record DatabricksDatabase(DatabricksWorkspace workspace, String catalog, VolumeStage stage)
        implements SqlDatabase {
    private static final long serialVersionUID = 1L;
    private static final DatabricksDialect DIALECT = new DatabricksDialect();

    @Override
    public DatabricksDialect dialect() {
        return DIALECT;
    }

    @Override
    public Staging staging() {
        return new StagedFiles(
                stage, StagedLayout.DEFAULT, new DatabricksCopy(stage), new DatabricksParquet());
    }

    @Override
    public Connection connect() {
        return StatementConnection.open(workspace, catalog);
    }

    @Override
    public StagingLoader loader(Connection connection) {
        return new StagedFileLoader(stage, StagedLayout.DEFAULT, new DatabricksParquet());
    }

    /**
     * Creates the schema and the staging volume where missing; a missing privilege fails here,
     * before any work, with the GRANT to run.
     */
    @Override
    public void checkAccess(Connection c, String schema) throws IOException {
        String ns = DIALECT.quote(catalog) + "." + DIALECT.quote(schema);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS " + ns);
        } catch (SQLException e) {
            throw failure(
                    "creating schema "
                            + ns
                            + " (create it yourself, or GRANT USE CATALOG, CREATE SCHEMA ON CATALOG "
                            + DIALECT.quote(catalog)
                            + ")",
                    e);
        }
        String volume = ns + "." + DIALECT.quote(stage.volume());
        try (Statement st = c.createStatement()) {
            st.execute("CREATE VOLUME IF NOT EXISTS " + volume);
        } catch (SQLException e) {
            throw failure(
                    "creating the staging volume "
                            + volume
                            + " (create it yourself and GRANT READ VOLUME, WRITE VOLUME on it, or"
                            + " GRANT CREATE VOLUME ON SCHEMA "
                            + ns
                            + ")",
                    e);
        }
    }

    @Override
    public IOException failure(String doing, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        String what;
        if (state.equals("28000")) {
            what =
                    "cannot log in: "
                            + message
                            + ". Check the access token (the access_token field of the data sink,"
                            + " usually ${VAR} in skippr.yml)";
        } else if (state.startsWith("08")) {
            what = "cannot connect: " + message;
        } else if (message.contains("PERMISSION_DENIED")
                || message.contains("INSUFFICIENT_PERMISSIONS")) {
            what =
                    message
                            + ": GRANT USE CATALOG, USE SCHEMA, CREATE TABLE, MODIFY, SELECT,"
                            + " READ VOLUME, WRITE VOLUME to the token's principal"
                            + " (docs/connectors/databricks.md)";
        } else {
            what = message + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
        }
        return new SqlFailureException(what + " — while " + doing + " on " + describe(), e);
    }

    /**
     * A lost connection, throttling or a Delta concurrent-write conflict: the commit is repeated.
     */
    @Override
    public boolean retriable(SQLException e) {
        return DatabricksWorkspace.transientState(e.getSQLState(), e.getMessage());
    }

    @Override
    public String describe() {
        return workspace + ", catalog \"" + catalog + "\" (staging in " + stage.root() + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
