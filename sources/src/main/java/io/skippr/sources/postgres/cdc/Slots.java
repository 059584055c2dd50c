package io.skippr.sources.postgres.cdc;

import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/** Publications and logical replication slots (pgoutput) of a change stream. */
public final class Slots {
    /** PostgreSQL's rule for slot names (ReplicationSlotValidateName). */
    private static final Pattern SLOT_NAME = Pattern.compile("[a-z0-9_]{1,63}");

    private Slots() {}

    /** A table by its schema and name, as in the catalog. */
    public record TableName(String schema, String table) {
        String quoted() {
            return quoteName(schema) + "." + quoteName(table);
        }
    }

    /**
     * Creates publication {@code publication} for {@code tables} when it does not exist; adds the
     * tables it lacks when it does.
     */
    public static void ensurePublication(
            Connection connection, String publication, List<TableName> tables) throws SQLException {
        List<TableName> published = publishedTables(connection, publication);
        if (published == null) {
            execute(connection, publicationSql("CREATE", publication, " FOR TABLE ", tables));
            return;
        }
        List<TableName> missing = new ArrayList<>(tables);
        missing.removeAll(published);
        if (!missing.isEmpty()) {
            execute(connection, publicationSql("ALTER", publication, " ADD TABLE ", missing));
        }
    }

    /** The tables of {@code publication}, or null when it does not exist. */
    public static List<TableName> publishedTables(Connection connection, String publication)
            throws SQLException {
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT p.oid IS NOT NULL, t.schemaname, t.tablename"
                                + " FROM (SELECT oid FROM pg_publication WHERE pubname = ?) p"
                                + " LEFT JOIN pg_publication_tables t ON t.pubname = ?"
                                + " ORDER BY 2, 3")) {
            s.setString(1, publication);
            s.setString(2, publication);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                List<TableName> tables = new ArrayList<>();
                do {
                    if (rs.getString(2) != null) {
                        tables.add(new TableName(rs.getString(2), rs.getString(3)));
                    }
                } while (rs.next());
                return tables;
            }
        }
    }

    /**
     * Creates logical slot {@code slot} on the pgoutput plugin and exports its snapshot. Creation
     * waits until every transaction open when it started has ended; after {@code timeout} it is
     * cancelled and the error names those transactions.
     *
     * @throws IOException on failure or timeout; no slot is left behind then
     */
    public static SlotSnapshot createSlot(
            PostgresConnectionConfig config, String slot, Duration timeout) throws IOException {
        return createSlot(config, slot, false, timeout);
    }

    /**
     * Creates a TEMPORARY logical slot named {@code slot} (dropped by PostgreSQL when the returned
     * snapshot's connection closes) and exports its snapshot, as {@link #createSlot} does: its
     * consistent point is exact for the snapshot, which is what a table added to a running stream
     * is snapshotted in. Creation waits only for the transactions open when it started.
     */
    public static SlotSnapshot createTemporarySlot(
            PostgresConnectionConfig config, String slot, Duration timeout) throws IOException {
        return createSlot(config, slot, true, timeout);
    }

    private static SlotSnapshot createSlot(
            PostgresConnectionConfig config, String slot, boolean temporary, Duration timeout)
            throws IOException {
        checkSlotName(slot);
        Connection replication;
        int walsenderPid;
        try {
            replication = ReplicationConnections.open(config);
            try (Statement s = replication.createStatement();
                    ResultSet rs = s.executeQuery("SELECT pg_backend_pid()")) {
                rs.next();
                walsenderPid = rs.getInt(1);
            }
        } catch (SQLException e) {
            throw new IOException(
                    "Could not open a replication connection to "
                            + config.describe()
                            + ": "
                            + e.getMessage(),
                    e);
        }
        ExecutorService executor =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "skippr-create-slot-" + slot);
                            t.setDaemon(true);
                            return t;
                        });
        Statement create = null;
        try {
            create = replication.createStatement();
            Statement statement = create;
            Future<SlotSnapshot> created =
                    executor.submit(
                            () -> {
                                try (ResultSet rs =
                                        statement.executeQuery(
                                                "CREATE_REPLICATION_SLOT "
                                                        + quoteName(slot)
                                                        + (temporary ? " TEMPORARY" : "")
                                                        + " LOGICAL pgoutput (SNAPSHOT 'export')")) {
                                    rs.next();
                                    return new SlotSnapshot(
                                            replication,
                                            rs.getString("slot_name"),
                                            Lsn.parse(rs.getString("consistent_point")),
                                            rs.getString("snapshot_name"));
                                }
                            });
            try {
                return created.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                String blockers = OpenTransactions.describe(config, walsenderPid);
                create.cancel();
                SlotSnapshot late = afterCancel(created);
                if (late != null) { // the blockers ended as the cancel went out
                    return late;
                }
                PostgresConnectionConfig.closeQuietly(replication);
                throw new IOException(
                        "Creating replication slot "
                                + slot
                                + " on "
                                + config.describe()
                                + " did not finish within "
                                + timeout.toSeconds()
                                + " s: PostgreSQL makes a new slot wait until every transaction"
                                + " open when its creation started has ended. "
                                + blockers
                                + " End them (COMMIT or ROLLBACK, COMMIT PREPARED or ROLLBACK"
                                + " PREPARED, or SELECT pg_terminate_backend(pid)) and try again.");
            } catch (ExecutionException e) {
                PostgresConnectionConfig.closeQuietly(replication);
                Throwable cause = e.getCause();
                throw new IOException(
                        "Could not create replication slot "
                                + slot
                                + " on "
                                + config.describe()
                                + ": "
                                + cause.getMessage(),
                        cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                PostgresConnectionConfig.closeQuietly(replication);
                throw new IOException("interrupted while creating replication slot " + slot, e);
            }
        } catch (SQLException e) {
            PostgresConnectionConfig.closeQuietly(replication);
            throw new IOException(
                    "Could not create replication slot " + slot + ": " + e.getMessage(), e);
        } finally {
            executor.shutdownNow();
        }
    }

    /** Drops {@code slot} if it exists; true when it did. */
    public static boolean dropSlot(Connection connection, String slot) throws SQLException {
        try (PreparedStatement s =
                connection.prepareStatement(
                        "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                                + " WHERE slot_name = ?")) {
            s.setString(1, slot);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Drops {@code publication} if it exists. */
    public static void dropPublication(Connection connection, String publication)
            throws SQLException {
        execute(connection, "DROP PUBLICATION IF EXISTS " + quoteName(publication));
    }

    static void checkSlotName(String slot) {
        if (slot == null || !SLOT_NAME.matcher(slot).matches()) {
            throw new IllegalArgumentException(
                    "replication slot name "
                            + slot
                            + " is not valid: PostgreSQL allows 1 to 63 lower-case letters,"
                            + " digits and underscores");
        }
    }

    /** A double-quoted identifier with inner quotes doubled. */
    static String quoteName(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    private static String publicationSql(
            String verb, String publication, String clause, List<TableName> tables) {
        StringBuilder sql =
                new StringBuilder(verb)
                        .append(" PUBLICATION ")
                        .append(quoteName(publication))
                        .append(clause);
        for (int i = 0; i < tables.size(); i++) {
            if (i > 0) {
                sql.append(", ");
            }
            sql.append(tables.get(i).quoted());
        }
        return sql.toString();
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    /** The slot when the creation finished before the cancel reached it, else null. */
    private static SlotSnapshot afterCancel(Future<SlotSnapshot> created) {
        try {
            return created.get(30, TimeUnit.SECONDS);
        } catch (Exception cancelled) {
            // the cancelled creation fails; its error is not the one to report
            return null;
        }
    }
}
