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
 * <p>An id is {@code skippr_<24 hex digits of pipeline and sink>_<run>_<subtask>}: deterministic,
 * so a restarted writer finds its own, and within the 200 bytes PostgreSQL allows.
 */
final class PreparedTransactions {
    /** {@code -Dskippr.postgres.prepared=false} turns the fast path off (tests of the fallback). */
    static final String SWITCH = "skippr.postgres.prepared";

    private PreparedTransactions() {}

    /** The prefix of the ids of one pipeline and sink. */
    static String prefix(SqlSinkSettings settings) {
        String of = SkipprId.of("prepared", settings.pipeline() + "\u0000" + settings.sink());
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
     * Commits the prepared transactions of this pipeline and sink whose run committed its marker
     * rows (the commit stopped between the markers and them), rolls back the others (their run
     * never committed).
     */
    static void finishLeft(Connection c, SqlSinkSettings settings) throws SQLException {
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
