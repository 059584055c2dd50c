package io.skippr.sinks.postgres;

import io.skippr.core.record.SkipprId;
import io.skippr.sinks.sql.MarkerTable;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.WriteMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * PostgreSQL's prepared transactions as the sink's fast path uses them (DESIGN §6): ids, whether
 * the server allows them, finishing them, and finishing what a crashed run left.
 *
 * <p>A writer's id is {@code skippr_<24 hex digits of pipeline, sink, database and
 * schema>_<run>_<subtask>}, the run's commit's own {@code skippr_<…>_<run>_commit}: deterministic,
 * so a restarted writer or a replayed commit finds its own, and within the 200 bytes PostgreSQL
 * allows.
 */
final class PreparedTransactions {
    /** {@code -Dskippr.postgres.prepared=false} turns the fast path off (tests of the fallback). */
    static final String SWITCH = "skippr.postgres.prepared";

    private PreparedTransactions() {}

    /**
     * The prefix of the ids of one pipeline and sink into one database and schema. Ids are unique
     * in the whole server, so two pipelines of the same names loading other databases or schemas of
     * it must not share them (nor finish each other's).
     */
    static String prefix(SqlSinkSettings settings) {
        String database = settings.database() instanceof PostgresDatabase pg ? pg.database() : "";
        String of =
                SkipprId.of(
                        "prepared",
                        String.join(
                                "\u0000",
                                settings.pipeline(),
                                settings.sink(),
                                database,
                                settings.schema()));
        return "skippr_" + of.substring(0, 24) + "_";
    }

    static String gid(SqlSinkSettings settings, int subtask) {
        return prefix(settings) + settings.run() + "_" + subtask;
    }

    /**
     * Whether a writer of this run may load its rows straight into the targets: a bounded run in
     * append or the default mode (whose streams with a key load directly only into an empty target,
     * see {@link PgPreparedLoader}), on a server with {@code max_prepared_transactions > 0}, not
     * switched off.
     */
    static boolean usable(SqlSinkSettings settings, Connection c) throws SQLException {
        if (!settings.bounded()
                || (settings.mode() != WriteMode.APPEND && settings.mode() != WriteMode.DEFAULT)
                || "false".equals(System.getProperty(SWITCH))) {
            return false;
        }
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW max_prepared_transactions")) {
            return rs.next() && Integer.parseInt(rs.getString(1).trim()) > 0;
        }
    }

    /** The id of a bounded run's own commit transaction, prepared after its writers'. */
    static String commitGid(SqlSinkSettings settings, long run) {
        return prefix(settings) + run + "_commit";
    }

    static void prepare(Connection c, String gid) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("PREPARE TRANSACTION '" + gid.replace("'", "''") + "'");
        }
    }

    /**
     * Takes or releases the session-level advisory lock of this pipeline and sink's prepared
     * transactions: a commit holds it from reading whether its run is decided to its last COMMIT
     * PREPARED, and {@link #finishLeft} holds it too, so a start never rolls back a transaction of
     * a run that a running commit is deciding. A killed session releases it.
     */
    static void lock(Connection c, SqlSinkSettings settings, boolean lock) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT "
                                + (lock ? "pg_advisory_lock" : "pg_advisory_unlock")
                                + "(hashtextextended(?, 0))")) {
            st.setString(1, prefix(settings));
            st.executeQuery().close();
        }
    }

    static boolean isPrepared(Connection c, String gid) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM pg_catalog.pg_prepared_xacts"
                                + " WHERE gid = ? AND database = current_database()")) {
            st.setString(1, gid);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** COMMIT PREPARED or ROLLBACK PREPARED; false if {@code gid} is not prepared. */
    static boolean finish(Connection c, String gid, boolean commit) throws SQLException {
        if (!isPrepared(c, gid)) {
            return false;
        }
        try (Statement st = c.createStatement()) {
            st.execute(
                    (commit ? "COMMIT PREPARED " : "ROLLBACK PREPARED ")
                            + "'"
                            + gid.replace("'", "''")
                            + "'");
        }
        return true;
    }

    /**
     * Commits the prepared transactions of this pipeline and sink whose run is decided (a marker
     * row of it is visible: its commit stopped between two COMMIT PREPAREDs), rolls back the others
     * (their run never committed anything). Holds {@link #lock}; {@code c} is in auto-commit.
     */
    static void finishLeft(Connection c, SqlSinkSettings settings) throws SQLException {
        lock(c, settings, true);
        try {
            finishLeftLocked(c, settings);
        } finally {
            lock(c, settings, false);
        }
    }

    private static void finishLeftLocked(Connection c, SqlSinkSettings settings)
            throws SQLException {
        String prefix = prefix(settings);
        List<String> left = new ArrayList<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT gid FROM pg_catalog.pg_prepared_xacts"
                                + " WHERE database = current_database() AND starts_with(gid, ?)"
                                + " ORDER BY gid")) {
            st.setString(1, prefix);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    left.add(rs.getString(1));
                }
            }
        }
        MarkerTable markers = new MarkerTable(settings);
        for (String gid : left) {
            String[] parts = gid.substring(prefix.length()).split("_");
            long run = Long.parseLong(parts[0]);
            finish(c, gid, markers.boundedRunCommitted(c, run));
        }
    }
}
