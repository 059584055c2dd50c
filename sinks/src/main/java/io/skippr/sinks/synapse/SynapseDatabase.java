package io.skippr.sinks.synapse;

import io.skippr.config.Secret;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.Staging;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.staged.StagedFileLoader;
import io.skippr.sinks.staged.StagedFiles;
import io.skippr.sinks.staged.StagedLayout;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * A Synapse dedicated SQL pool as the staged-load family uses it: connections through the official
 * driver ({@code com.microsoft.sqlserver:mssql-jdbc}, SQL logins), rows staged as Parquet in a Blob
 * container ({@link BlobStage}) and loaded by {@link SynapseCopy}. The password and the storage key
 * travel in the job graph as {@link Secret}s (their references, never their values) and are
 * revealed only to hand them to the driver and the SDK: {@link #toString()} and every message name
 * host, port, database, user and container.
 */
public record SynapseDatabase(
        String host,
        int port,
        String database,
        String user,
        Secret password,
        boolean encrypt,
        BlobStage stage,
        boolean hashDistribution)
        implements SqlDatabase {
    private static final long serialVersionUID = 1L;

    /** Errors by which the server refuses a row's value: overflow, truncation, conversion, NULL. */
    private static final Set<Integer> REFUSALS =
            Set.of(8115, 2628, 8152, 245, 241, 242, 8114, 515, 220, 232);

    /** Deadlock victim; the pool busy, paused or failing over. */
    private static final Set<Integer> TRANSIENT = Set.of(1205, 40501, 40613, 49918, 49919, 49920);

    @Override
    public SynapseDialect dialect() {
        return new SynapseDialect(hashDistribution);
    }

    @Override
    public Staging staging() {
        return new StagedFiles(stage, StagedLayout.DEFAULT, new SynapseCopy(stage));
    }

    @Override
    public Connection connect() throws IOException {
        Properties props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password.reveal());
        }
        props.setProperty("databaseName", database);
        props.setProperty("encrypt", Boolean.toString(encrypt));
        props.setProperty("applicationName", "skippr");
        props.setProperty("loginTimeout", "30");
        try {
            return new com.microsoft.sqlserver.jdbc.SQLServerDriver()
                    .connect("jdbc:sqlserver://" + host + ":" + port, props);
        } catch (SQLException e) {
            throw failure("connecting", e);
        }
    }

    @Override
    public StagingLoader loader(Connection connection) {
        return new StagedFileLoader(stage, StagedLayout.DEFAULT, new SynapseParquet());
    }

    /**
     * Checks, before any work, that the user can create the schema (or use it), create tables in
     * it, load them with COPY INTO and change their rows; the message names the GRANT that is
     * missing.
     */
    @Override
    public void checkAccess(Connection c, String schema) throws IOException {
        SynapseDialect d = dialect();
        try {
            String db = d.literal(database);
            String ns = d.quote(schema);
            List<String[]> needed = new ArrayList<>();
            if (!d.schemaExists(c, schema)) {
                needed.add(new String[] {db, "DATABASE", "CREATE SCHEMA", "CREATE SCHEMA"});
            } else {
                for (String permission : List.of("ALTER", "SELECT", "INSERT", "DELETE")) {
                    needed.add(
                            new String[] {
                                d.literal(schema),
                                "SCHEMA",
                                permission,
                                permission + " ON SCHEMA::" + ns
                            });
                }
            }
            needed.add(new String[] {db, "DATABASE", "CREATE TABLE", "CREATE TABLE"});
            needed.add(
                    new String[] {
                        db,
                        "DATABASE",
                        "ADMINISTER DATABASE BULK OPERATIONS",
                        "ADMINISTER DATABASE BULK OPERATIONS"
                    });
            List<String> missing = new ArrayList<>();
            for (String[] n : needed) {
                if (!test(
                        c,
                        "SELECT HAS_PERMS_BY_NAME("
                                + n[0]
                                + ", N'"
                                + n[1]
                                + "', N'"
                                + n[2]
                                + "')")) {
                    missing.add("GRANT " + n[3] + " TO " + d.quote(user));
                }
            }
            if (!missing.isEmpty()) {
                throw new SqlFailureException(
                        "permission denied to load schema "
                                + ns
                                + ": "
                                + String.join("; ", missing)
                                + " — "
                                + describe());
            }
        } catch (SQLException e) {
            throw failure("checking privileges on schema " + schema, e);
        }
    }

    private static boolean test(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }

    @Override
    public IOException failure(String doing, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        int code = e.getErrorCode();
        String message = firstLine(e.getMessage() == null ? e.toString() : e.getMessage());
        String what;
        if (code == 18456) {
            what =
                    "cannot log in: "
                            + message
                            + ". Check the user and the password (the password field of the"
                            + " data sink, usually ${VAR} in skippr.yml)";
        } else if (code == 4060) {
            what = message + ": check the database field (the SQL pool's name)";
        } else if (state.startsWith("08") || doing.equals("connecting")) {
            what = "cannot connect: " + message;
        } else if (code == 229 || code == 262 || code == 2760 || code == 15151) {
            what =
                    message
                            + ": GRANT CREATE TABLE TO "
                            + dialect().quote(user)
                            + " and GRANT ALTER, SELECT, INSERT, DELETE on the schema";
        } else {
            what = message + " (error " + code + ")";
        }
        return new SqlFailureException(what + " — while " + doing + " on " + describe(), e);
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    @Override
    public boolean retriable(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return TRANSIENT.contains(e.getErrorCode()) || state.startsWith("08");
    }

    @Override
    public boolean refusesRows(SQLException e) {
        return REFUSALS.contains(e.getErrorCode());
    }

    @Override
    public String describe() {
        return "Synapse at "
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
