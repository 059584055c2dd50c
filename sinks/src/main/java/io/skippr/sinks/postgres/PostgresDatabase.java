package io.skippr.sinks.postgres;

import io.skippr.config.Secret;
import io.skippr.core.postgres.PgDataSources;
import io.skippr.core.postgres.PgErrors;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.MarkerTable;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter.StagingMeta;
import io.skippr.sinks.sql.StagingLoader;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A PostgreSQL server as a SQL sink uses it. It travels in the job graph with the password as a
 * {@link Secret} (its reference, never its value), revealed only to hand it to the driver in {@link
 * #connect()}: {@link #toString()} and every message name host, port, database and user, never the
 * password.
 *
 * @param password null for none
 * @param sslmode libpq's {@code sslmode}, passed to pgjdbc as is (null: prefer)
 * @param sslrootcert the CA certificate file for verify-ca and verify-full (null: libpq's default)
 */
public record PostgresDatabase(
        String host,
        int port,
        String database,
        String user,
        Secret password,
        String sslmode,
        String sslrootcert)
        implements SqlDatabase {
    private static final long serialVersionUID = 1L;
    private static final PostgresDialect DIALECT = new PostgresDialect();
    private static final Pattern DENIED =
            Pattern.compile("permission denied for (schema|database|table|relation) (.+)");
    private static final Pattern OWNER =
            Pattern.compile("must be owner of (?:table|relation) (.+)");

    public PostgresDatabase(
            String host, int port, String database, String user, Secret password, String sslmode) {
        this(host, port, database, user, password, sslmode, null);
    }

    @Override
    public PostgresDialect dialect() {
        return DIALECT;
    }

    @Override
    public Connection connect() throws IOException {
        PGSimpleDataSource ds =
                PgDataSources.of(
                        host,
                        port,
                        database,
                        user,
                        password == null ? null : password.reveal(),
                        sslmode,
                        sslrootcert);
        Connection connection;
        try {
            connection = PgDataSources.connect(ds);
        } catch (SQLException e) {
            throw failure("connecting", e);
        }
        try (Statement st = connection.createStatement()) {
            st.execute("SET TimeZone = 'UTC'");
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
    public StagingLoader loader(Connection connection) throws IOException {
        return new PgCopyLoader(this, connection);
    }

    /** {@link PgPreparedLoader} where {@link PreparedTransactions#usable}, else staging. */
    @Override
    public StagingLoader loader(Connection connection, SqlSinkSettings settings, int subtask)
            throws IOException {
        try {
            if (PreparedTransactions.usable(settings, connection)
                    && !new MarkerTable(settings).boundedRunCommitted(connection, settings.run())) {
                return new PgPreparedLoader(this, connection, settings, subtask);
            }
        } catch (SQLException e) {
            throw failure("checking whether transactions can be prepared", e);
        }
        return loader(connection);
    }

    @Override
    public boolean isPrepared(Connection connection, String gid) throws SQLException {
        return PreparedTransactions.isPrepared(connection, gid);
    }

    @Override
    public boolean finishPrepared(Connection connection, String gid, boolean commit)
            throws SQLException {
        return PreparedTransactions.finish(connection, gid, commit);
    }

    @Override
    public String preparedCommitId(SqlSinkSettings settings, long run) {
        return PreparedTransactions.commitGid(settings, run);
    }

    @Override
    public void prepare(Connection connection, String gid) throws SQLException {
        PreparedTransactions.prepare(connection, gid);
    }

    @Override
    public void lockPrepared(Connection connection, SqlSinkSettings settings, boolean lock)
            throws SQLException {
        PreparedTransactions.lock(connection, settings, lock);
    }

    @Override
    public void finishLeftPrepared(Connection connection, SqlSinkSettings settings)
            throws SQLException {
        PreparedTransactions.finishLeft(connection, settings);
    }

    @Override
    public void rollBackUnheld(
            Connection connection, SqlSinkSettings settings, Predicate<StagingMeta> unheld)
            throws SQLException {
        for (var e : PreparedTransactions.checkpointTransactions(connection, settings).entrySet()) {
            if (unheld.test(e.getValue())) {
                PreparedTransactions.finish(connection, e.getKey(), false);
            }
        }
    }

    @Override
    public List<StreamSchema> settleOwed(
            Connection connection, SqlSinkSettings settings, List<StreamSchema> schemas)
            throws SQLException {
        return OwedTables.settle(connection, settings, schemas);
    }

    /**
     * Checks, before any work, that the role can create the schema (or use it) and create tables in
     * it; the message names the GRANT that is missing.
     */
    @Override
    public void checkAccess(Connection c, String schema) throws IOException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT n.oid IS NOT NULL,"
                                + " has_database_privilege(current_database(), 'CREATE'),"
                                + " CASE WHEN n.oid IS NULL THEN false"
                                + " ELSE has_schema_privilege(n.oid, 'USAGE') END,"
                                + " CASE WHEN n.oid IS NULL THEN false"
                                + " ELSE has_schema_privilege(n.oid, 'CREATE') END,"
                                + " quote_ident(current_user), quote_ident(current_database()),"
                                + " quote_ident(s.name)"
                                + " FROM (SELECT ?::text AS name) s"
                                + " LEFT JOIN pg_catalog.pg_namespace n ON n.nspname = s.name")) {
            st.setString(1, schema);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                boolean exists = rs.getBoolean(1);
                String role = rs.getString(5);
                String db = rs.getString(6);
                String ns = rs.getString(7);
                if (!exists && !rs.getBoolean(2)) {
                    throw new SqlFailureException(
                            "permission denied to create schema "
                                    + ns
                                    + ": GRANT CREATE ON DATABASE "
                                    + db
                                    + " TO "
                                    + role
                                    + " (or create the schema yourself and GRANT USAGE, CREATE"
                                    + " ON SCHEMA "
                                    + ns
                                    + " TO "
                                    + role
                                    + ") — "
                                    + describe());
                }
                if (exists && !(rs.getBoolean(3) && rs.getBoolean(4))) {
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
            }
        } catch (SQLException e) {
            throw failure("checking privileges on schema " + schema, e);
        }
    }

    @Override
    public IOException failure(String doing, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? "" : firstLine(e.getMessage());
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
            what = "cannot connect: " + message + PgDataSources.tlsHint(message, sslrootcert);
        } else if (state.equals("42501")) {
            what = privilege(message);
        } else {
            what = message + (state.isEmpty() ? "" : " (SQLSTATE " + state + ")");
        }
        return new SqlFailureException(
                what + " — while " + doing + " on " + describe(), PgErrors.cause(e));
    }

    /** The GRANT that cures a permission error, as far as the server's message tells. */
    private String privilege(String message) {
        Matcher denied = DENIED.matcher(message);
        if (denied.find()) {
            String kind = denied.group(1);
            String name = denied.group(2).trim();
            return switch (kind) {
                case "database" ->
                        message + ": GRANT CONNECT, CREATE ON DATABASE " + name + " TO " + user;
                case "schema" ->
                        message + ": GRANT USAGE, CREATE ON SCHEMA " + name + " TO " + user;
                default ->
                        message
                                + ": GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON TABLE "
                                + name
                                + " TO "
                                + user
                                + ", or make "
                                + user
                                + " its owner (Skippr adds columns and swaps tables, which only"
                                + " the owner may do)";
            };
        }
        Matcher owner = OWNER.matcher(message);
        if (owner.find()) {
            return message
                    + ": ALTER TABLE "
                    + owner.group(1).trim()
                    + " OWNER TO "
                    + user
                    + " (Skippr adds and widens columns and swaps tables, which only the owner"
                    + " may do)";
        }
        return message;
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /**
     * Data exceptions (class 22), integrity constraint violations (23), a view's check option (44)
     * and what a trigger raises (P0001); never a missing privilege, which is the whole run's.
     */
    @Override
    public boolean refusesRows(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.startsWith("22")
                || state.startsWith("23")
                || state.startsWith("44")
                || state.equals("P0001");
    }

    @Override
    public String refusal(SQLException e) {
        if (e instanceof org.postgresql.util.PSQLException p
                && p.getServerErrorMessage() != null
                && p.getServerErrorMessage().getMessage() != null) {
            return p.getServerErrorMessage().getMessage();
        }
        return SqlDatabase.super.refusal(e);
    }

    @Override
    public void beginProbe(Connection c) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = '5s'");
        }
    }

    @Override
    public boolean retriable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.equals("40001") || state.equals("40P01") || state.startsWith("08");
    }

    @Override
    public String describe() {
        return "PostgreSQL at "
                + host
                + ":"
                + port
                + ", database \""
                + database
                + "\", user \""
                + user
                + "\" (sslmode "
                + (sslmode == null ? "prefer" : sslmode)
                + ")";
    }

    @Override
    public String toString() {
        return describe();
    }
}
