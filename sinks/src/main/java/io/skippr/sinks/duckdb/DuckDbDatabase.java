package io.skippr.sinks.duckdb;

import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlFailureException;
import io.skippr.sinks.sql.StagingLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A DuckDB database as a SQL sink uses it: a local file ({@link #file}) or any other DuckDB
 * location such as MotherDuck's {@code md:<database>}. Connections come from {@link
 * DuckDbInstances}, one shared instance per JVM. Connection properties may hold secrets (the
 * MotherDuck token): they are only handed to the driver, and {@link #toString()} and every message
 * name the location, never a property value.
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

    /**
     * @param url the JDBC URL, {@code jdbc:duckdb:<location>}; never holds a secret
     * @param place what messages call the database, such as {@code MotherDuck database md:sales}
     * @param file the database file when it is local (for lock messages), or null
     * @param properties connection properties passed to the driver; may hold secrets
     */
    public DuckDbDatabase(String url, String place, String file, Map<String, String> properties) {
        this.url = url;
        this.place = place;
        this.file = file;
        this.properties = new HashMap<>(properties);
    }

    /** The database file at {@code path} (absolute), created with its folders if missing. */
    public static DuckDbDatabase file(Path path) {
        String absolute = path.toAbsolutePath().normalize().toString();
        return new DuckDbDatabase(
                "jdbc:duckdb:" + absolute, "DuckDB database file " + absolute, absolute, Map.of());
    }

    /** The JDBC URL; it never holds a secret. */
    public String url() {
        return url;
    }

    /** The properties given to the driver (they may hold secrets: never print them). */
    public Map<String, String> connectionProperties() {
        return Map.copyOf(properties);
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
            return DuckDbInstances.connect(url, properties);
        } catch (SQLException e) {
            throw failure("connecting", e);
        }
    }

    @Override
    public StagingLoader loader(Connection connection) throws IOException {
        return new DuckDbAppenderLoader(this, connection);
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
        for (String value : properties.values()) {
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

    /** Two transactions that touched the same catalog entry or rows: the later one may retry. */
    /** What DuckDB says of a row it will not take: constraint, conversion and range errors. */
    @Override
    public boolean refusesRows(SQLException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        return message.startsWith("Constraint Error")
                || message.startsWith("Conversion Error")
                || message.startsWith("Out of Range Error");
    }

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
