package io.skippr.sinks.redshift;

import io.skippr.config.Secret;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.staged.S3Stage;
import io.skippr.sinks.staged.StagedFileLoader;
import io.skippr.sinks.staged.StagedFiles;
import io.skippr.sinks.staged.StagedLayout;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Properties;

/**
 * A Redshift cluster or workgroup as the staged-load family uses it: connections through the
 * official driver ({@code com.amazon.redshift.Driver}), rows staged on S3 ({@link S3Stage}) and
 * loaded by {@link RedshiftCopy}. The password travels in the job graph as a {@link Secret} (its
 * reference, never its value) and is revealed only to hand it to the driver: {@link #toString()}
 * and every message name host, port, database and user.
 *
 * @param password null for none
 */
public record RedshiftDatabase(
        String host,
        int port,
        String database,
        String user,
        Secret password,
        boolean ssl,
        S3Stage stage,
        RedshiftCopy copy)
        implements SqlDatabase {
    private static final long serialVersionUID = 1L;
    private static final RedshiftDialect DIALECT = new RedshiftDialect();

    @Override
    public RedshiftDialect dialect() {
        return DIALECT;
    }

    @Override
    public Staging staging() {
        return new StagedFiles(stage, StagedLayout.DEFAULT, copy);
    }

    @Override
    public Connection connect() throws IOException {
        Properties props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password.reveal());
        }
        props.setProperty("ssl", Boolean.toString(ssl));
        props.setProperty("ApplicationName", "skippr");
        Connection connection;
        try {
            connection =
                    new com.amazon.redshift.jdbc.Driver()
                            .connect(
                                    "jdbc:redshift://" + host + ":" + port + "/" + database, props);
        } catch (SQLException e) {
            throw failure("connecting", e);
        }
        try (Statement st = connection.createStatement()) {
            st.execute("SET timezone TO 'UTC'");
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
        return new StagedFileLoader(stage, StagedLayout.DEFAULT);
    }

    /**
     * Checks, before any work, that the user can create the schema (or use it) and create tables in
     * it; the message names the GRANT that is missing.
     */
    @Override
    public void checkAccess(Connection c, String schema) throws IOException {
        try {
            boolean exists = DIALECT.schemaExists(c, schema);
            String ns = DIALECT.quote(schema);
            String role = DIALECT.quote(user);
            if (!exists
                    && !test(
                            c,
                            "SELECT has_database_privilege(current_database(), 'CREATE')",
                            null)) {
                throw new SqlFailureException(
                        "permission denied to create schema "
                                + ns
                                + ": GRANT CREATE ON DATABASE "
                                + DIALECT.quote(database)
                                + " TO "
                                + role
                                + " (or create the schema yourself and GRANT USAGE, CREATE ON"
                                + " SCHEMA "
                                + ns
                                + " TO "
                                + role
                                + ") — "
                                + describe());
            }
            if (exists
                    && !(test(c, "SELECT has_schema_privilege(?, 'USAGE')", schema)
                            && test(c, "SELECT has_schema_privilege(?, 'CREATE')", schema))) {
                throw new SqlFailureException(
                        "permission denied to create tables in schema "
                                + ns
                                + ": GRANT USAGE, CREATE ON SCHEMA "
                                + ns
                                + " TO "
                                + role
                                + " — "
                                + describe());
            }
        } catch (SQLException e) {
            throw failure("checking privileges on schema " + schema, e);
        }
    }

    private static boolean test(Connection c, String sql, String arg) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            if (arg != null) {
                st.setString(1, arg);
            }
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    @Override
    public IOException failure(String doing, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = firstLine(e.getMessage() == null ? e.toString() : e.getMessage());
        String what;
        if (state.equals("28P01") || state.equals("28000")) {
            what =
                    "cannot log in: "
                            + message
                            + ". Check the user and the password (the password field of the"
                            + " data sink, usually ${VAR} in skippr.yml)";
        } else if (state.equals("3D000")) {
            what = message + ": create it, or correct the database field";
        } else if (state.startsWith("08") || state.isEmpty() && doing.equals("connecting")) {
            what = "cannot connect: " + message;
        } else if (state.equals("42501")) {
            what =
                    message
                            + ": GRANT USAGE, CREATE ON SCHEMA to "
                            + DIALECT.quote(user)
                            + ", and make it the owner of the tables Skippr loads (it adds"
                            + " columns and replaces tables)";
        } else {
            what = message + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
        }
        return new SqlFailureException(what + " — while " + doing + " on " + describe(), e);
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * Redshift's serializable isolation violation (error 1023), a serialization failure or a lost
     * connection: the commit's transaction is run again.
     */
    @Override
    public boolean retriable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        return state.equals("40001")
                || state.startsWith("08")
                || message.contains("serializable isolation violation")
                || message.matches("(?s).*\\b1023\\b.*");
    }

    /** Data exceptions (class 22) and integrity violations (23, NOT NULL). */
    @Override
    public boolean refusesRows(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("22") || state.startsWith("23");
    }

    @Override
    public String describe() {
        return "Redshift at "
                + host
                + ":"
                + port
                + ", database \""
                + database
                + "\", user \""
                + user
                + "\" (staging in "
                + stage.url("")
                + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
