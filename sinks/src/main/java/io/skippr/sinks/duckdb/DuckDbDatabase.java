package io.skippr.sinks.duckdb;

import io.skippr.config.Secret;
import io.skippr.sinks.sql.MarkerTable;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.SqlSinkException;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.WriteMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A DuckDB database as a SQL sink uses it: a local file ({@link #file}) or any other DuckDB
 * location such as MotherDuck's {@code md:<database>}. Connections come from {@link
 * DuckDbInstances}, one shared instance per JVM. Secret connection properties (the MotherDuck
 * token) travel in the job graph as {@link Secret}s (their references, never their values) and are
 * revealed only to hand them to the driver; {@link #toString()} and every message name the
 * location, never a property value.
 */
public final class DuckDbDatabase implements SqlDatabase {
    private static final long serialVersionUID = 1L;
    private static final DuckDbDialect DIALECT = new DuckDbDialect();
    private static final Pattern HOLDER =
            Pattern.compile("Conflicting lock is held in (.*?)(\\.|$)");

    private final String url;
    private final String place;
    private final String file;
    private final HashMap<String, String> properties;
    private final HashMap<String, Secret> secrets;

    /**
     * @param url the JDBC URL, {@code jdbc:duckdb:<location>}; never holds a secret
     * @param place what messages call the database, such as {@code MotherDuck database md:sales}
     * @param file the database file when it is local (for lock messages), or null
     * @param properties connection properties passed to the driver, none of them secret
     */
    public DuckDbDatabase(String url, String place, String file, Map<String, String> properties) {
        this(url, place, file, properties, Map.of());
    }

    /**
     * @param secrets connection properties that are secrets (the MotherDuck token)
     */
    public DuckDbDatabase(
            String url,
            String place,
            String file,
            Map<String, String> properties,
            Map<String, Secret> secrets) {
        this.url = url;
        this.place = place;
        this.file = file;
        this.properties = new HashMap<>(properties);
        this.secrets = new HashMap<>(secrets);
    }

    /** The database file at {@code path} (absolute), created with its folders if missing. */
    public static DuckDbDatabase file(Path path) {
        String absolute = path.toAbsolutePath().normalize().toString();
        return new DuckDbDatabase(
                "jdbc:duckdb:" + absolute, "DuckDB database file " + absolute, absolute, Map.of());
    }

    /** The database file at {@code path}, opened read-only ({@code duckdb.read_only}). */
    public static DuckDbDatabase readOnlyFile(Path path) {
        String absolute = path.toAbsolutePath().normalize().toString();
        return new DuckDbDatabase(
                "jdbc:duckdb:" + absolute,
                "DuckDB database file " + absolute,
                absolute,
                Map.of("duckdb.read_only", "true"));
    }

    /** The JDBC URL; it never holds a secret. */
    public String url() {
        return url;
    }

    /** The properties given to the driver, secrets revealed: never print them. */
    public Map<String, String> connectionProperties() {
        Map<String, String> all = new HashMap<>(properties);
        secrets.forEach((name, secret) -> all.put(name, secret.reveal()));
        return Map.copyOf(all);
    }

    @Override
    public DuckDbDialect dialect() {
        return DIALECT;
    }

    @Override
    public Connection connect() throws IOException {
        if (file != null) {
            Path parent = Path.of(file).getParent();
            if (parent != null && !Files.isDirectory(parent)) {
                try {
                    Files.createDirectories(parent);
                } catch (IOException e) {
                    throw new IOException(
                            "cannot create the folder "
                                    + parent
                                    + " for "
                                    + place
                                    + ": "
                                    + e.getMessage(),
                            e);
                }
            }
        }
        try {
            return DuckDbInstances.connect(url, connectionProperties());
        } catch (SQLException e) {
            throw failure("connecting", e);
        }
    }

    @Override
    public StagingLoader loader(Connection connection) throws IOException {
        return new DuckDbAppenderLoader(this, connection);
    }

    /**
     * {@link DuckDbRunLoader} where {@link #loadsInRunTransaction} applies and the run has not
     * committed yet (a replay stages as usual and its commit finds the marker), else staging.
     */
    @Override
    public StagingLoader loader(Connection connection, SqlSinkSettings settings, int subtask)
            throws IOException {
        try {
            if (loadsInRunTransaction(settings)
                    && !new MarkerTable(settings).boundedRunCommitted(connection, settings.run())) {
                return new DuckDbRunLoader(this, settings, subtask);
            }
        } catch (SQLException e) {
            throw failure("checking whether run " + settings.run() + " committed before", e);
        }
        return loader(connection);
    }

    /**
     * Whether writers load straight into the targets in one transaction of the run ({@link
     * RunTransaction}): for a bounded append run into a local file (whose writers and commit share
     * one process), not a deadletter sink (its commit deletes rows first). On unless switched off
     * with {@code -Dskippr.duckdb.run-transaction=false}, which stages every row and copies it at
     * the commit, as continuous and merge runs do.
     */
    boolean loadsInRunTransaction(SqlSinkSettings settings) {
        return file != null
                && settings.bounded()
                && settings.mode() == WriteMode.APPEND
                && settings.deadletterRun() <= 0
                && !"false".equals(System.getProperty(RUN_TRANSACTION));
    }

    /** The system property that turns {@link #loadsInRunTransaction} off. */
    static final String RUN_TRANSACTION = "skippr.duckdb.run-transaction";

    /**
     * The run's open transaction where its writers loaded into one, else {@code own}: also for a
     * replay of a commit that happened (its marker says so).
     */
    @Override
    public Connection committing(
            Connection own, SqlSinkSettings settings, List<SqlCommittable> committables)
            throws SQLException {
        if (!settings.bounded() || committables.isEmpty()) {
            return own;
        }
        Connection run =
                RunTransaction.forCommit(this, settings, committables.get(0).parallelism());
        if (run != null) {
            return run;
        }
        if (committables.stream().anyMatch(c -> c.kind() == SqlCommittable.Kind.HELD)
                && !new MarkerTable(settings).boundedRunCommitted(own, settings.run())) {
            throw new SqlSinkException(
                    "Bounded run "
                            + settings.run()
                            + " of pipeline "
                            + settings.pipeline()
                            + " loaded its rows into a transaction on "
                            + place
                            + " that is not open in this process any more (its writers ran in"
                            + " another process, or it was rolled back): nothing of the run was"
                            + " committed; run the pipeline again");
        }
        return own;
    }

    @Override
    public void committed(Connection used, Connection own, SqlSinkSettings settings) {
        if (used != own) {
            RunTransaction.end(this, settings);
        }
    }

    /** DuckDB has no privileges: whoever can open the file for writing may do everything. */
    @Override
    public void checkAccess(Connection connection, String schema) {}

    @Override
    public IOException failure(String doing, SQLException e) {
        String message = redact(e.getMessage() == null ? e.toString() : firstLine(e.getMessage()));
        if (message.contains("Could not set lock on file")
                || message.contains("Conflicting lock")) {
            Matcher holder = HOLDER.matcher(message);
            return new SqlFailureException(
                    (file == null ? place : "DuckDB database file " + file)
                            + " is locked by another process"
                            + (holder.find() ? " (" + holder.group(1).trim() + ")" : "")
                            + ": DuckDB lets one process at a time open a database file for"
                            + " writing. Stop the other process (another skipprd, a duckdb shell,"
                            + " a notebook) or point the sink's path at another file — while "
                            + doing
                            + " ("
                            + message
                            + ")",
                    new SQLException(message, e.getSQLState()));
        }
        return new SqlFailureException(
                message + " — while " + doing + " on " + place,
                new SQLException(message, e.getSQLState()));
    }

    /** {@code text} with every connection property value (the token) masked. */
    String redact(String text) {
        String out = text;
        for (String value : connectionProperties().values()) {
            if (value != null && value.length() >= 4) {
                out = out.replace(value, "***");
            }
        }
        return out;
    }

    private static String firstLine(String message) {
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }

    /** What DuckDB says of a row it will not take: constraint, conversion and range errors. */
    @Override
    public boolean refusesRows(SQLException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return message.startsWith("Constraint Error")
                || message.startsWith("Conversion Error")
                || message.startsWith("Out of Range Error");
    }

    /** Two transactions that touched the same catalog entry or rows: the later one may retry. */
    @Override
    public boolean retriable(SQLException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return message.contains("write-write conflict")
                || message.contains("Transaction conflict")
                || message.contains("Conflict on");
    }

    @Override
    public String describe() {
        return place;
    }

    @Override
    public String toString() {
        return place;
    }
}
