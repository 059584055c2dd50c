package io.skippr.sinks.snowflake;

import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.staged.StagedFileLoader;
import io.skippr.sinks.staged.StagedFiles;
import io.skippr.sinks.staged.StagedFormat;
import io.skippr.sinks.staged.StagedLayout;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A Snowflake account as the staged-load family uses it: connections through the official driver
 * ({@link SnowflakeLogin}), rows staged as Parquet in a named internal stage of the target schema
 * ({@link SnowflakeStage}) and loaded by {@link SnowflakeCopy}. Secrets are only handed to the
 * driver: {@link #toString()} and every message name the account, database and user.
 */
record SnowflakeDatabase(SnowflakeLogin login, SnowflakeStage stage) implements SqlDatabase {
    private static final long serialVersionUID = 1L;

    @Override
    public SnowflakeDialect dialect() {
        return SnowflakeDialect.QUOTE;
    }

    @Override
    public Staging staging() {
        return new StagedFiles(
                stage, StagedLayout.DEFAULT, new SnowflakeCopy(stage.ref()), StagedFormat.PARQUET);
    }

    @Override
    public Connection connect() throws IOException {
        Connection connection;
        try {
            connection = login.connect();
        } catch (SQLException e) {
            throw failure("connecting", e);
        }
        try (Statement st = connection.createStatement()) {
            st.execute("ALTER SESSION SET TIMEZONE = 'UTC'");
        } catch (SQLException e) {
            try {
                connection.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw failure("setting up the session", e);
        }
        return connection;
    }

    @Override
    public StagingLoader loader(Connection connection) {
        return new StagedFileLoader(stage, StagedLayout.DEFAULT, StagedFormat.PARQUET);
    }

    /**
     * Nothing to check ahead: Snowflake's privileges are the role's, and the first statement that
     * lacks one fails with Snowflake's message, which {@link #failure} completes with the GRANTs
     * the page lists.
     */
    @Override
    public void checkAccess(Connection c, String schema) {}

    @Override
    public IOException failure(String doing, SQLException e) {
        String message = firstLine(e.getMessage() == null ? e.toString() : e.getMessage());
        int code = e.getErrorCode();
        String what;
        if (code == 390100 || code == 390144 || code == 394304 || code == 390318) {
            what =
                    "cannot log in: "
                            + message
                            + ". Check the user and the password or private key (the data sink's"
                            + " password or private_key_file, usually ${VAR} in skippr.yml)";
        } else if (doing.equals("connecting") && code == 0) {
            what = "cannot connect: " + message;
        } else if (message.contains("does not exist or not authorized")
                || message.contains("Insufficient privileges")) {
            what =
                    message
                            + ": the role needs USAGE on the database and warehouse and USAGE,"
                            + " CREATE TABLE, CREATE STAGE on the schema (or CREATE SCHEMA on the"
                            + " database), see docs/connectors/snowflake.md";
        } else {
            what =
                    message
                            + (e.getSQLState() == null
                                    ? ""
                                    : " (SQL state " + e.getSQLState() + ")");
        }
        return new SqlFailureException(what + " — while " + doing + " on " + describe(), e);
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        if (nl >= 0 && message.startsWith("SQL compilation error:")) {
            return message.replace('\n', ' ');
        }
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** A lost connection, or a statement aborted by a deadlock or a lock wait: run it again. */
    @Override
    public boolean retriable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        int code = e.getErrorCode();
        return state.startsWith("08") || state.equals("40001") || code == 625;
    }

    /** NULL in a NOT NULL column and data exceptions (SQL state class 22). */
    @Override
    public boolean refusesRows(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return e.getErrorCode() == 100072 || state.startsWith("22") || state.startsWith("23");
    }

    @Override
    public String describe() {
        return login + " (staging in " + stage.ref() + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
