package io.skippr.sinks.postgres;

import io.skippr.core.record.SkipprId;
import io.skippr.sinks.sql.MarkerTable;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * PostgreSQL's prepared transactions as the sink's fast path uses them (DESIGN §6): ids, whether
 * the server allows them, finishing them, and finishing what a crashed run left.
 *
 * <p>A writer's id is {@code skippr_<24 hex digits of pipeline, sink, database and
 * schema>_<run>_<subtask>}, the run's commit's own {@code skippr_<…>_<run>_commit}: deterministic,
 * so a restarted writer or a replayed commit finds its own, and within the 200 bytes PostgreSQL
 * allows. Skippr wrote ids without database and schema before (commits 16155cb to 24f54e6: {@link
 * #legacyPrefix}); {@link #finishLeft} finishes those too, where they hold locks in this sink's
 * schema.
 */
final class PreparedTransactions {
    /** {@code -Dskippr.postgres.prepared=false} turns the fast path off (tests of the fallback). */
    static final String SWITCH = "skippr.postgres.prepared";

    /**
     * {@code -Dskippr.postgres.prepared.continuous=false} turns the path off for continuous append
     * runs, which then stage every row and move it at the commit (on by default). Rows of a schema
     * version whose target needs DDL go into owed staging tables that {@link OwedTables} settles
     * after the commit, so no DDL waits on a prepared transaction's locks.
     */
    static final String CONTINUOUS_SWITCH = "skippr.postgres.prepared.continuous";

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

    /**
     * The prefix an earlier Skippr gave the ids of one pipeline and sink, of pipeline and sink
     * only: shared by pipelines of those names loading other schemas or databases of the server.
     */
    static String legacyPrefix(SqlSinkSettings settings) {
        String of = SkipprId.of("prepared", settings.pipeline() + "\u0000" + settings.sink());
        return "skippr_" + of.substring(0, 24) + "_";
    }

    static String gid(SqlSinkSettings settings, int subtask) {
        return prefix(settings) + settings.run() + "_" + subtask;
    }

    /** What marks the id of a continuous run's transaction, after the prefix. */
    private static final String CHECKPOINT = "c";

    /**
     * The id of writer {@code subtask}'s transaction of one checkpoint of a continuous run: {@code
     * <prefix>c<run>_<subtask>_<epoch>_<seq>}, where epoch and seq are those of the first staging
     * table name of the checkpoint ({@code SqlStagingWriter}), so that a restored writer tells the
     * transactions a checkpoint holds from the others by the rule it drops staging tables by.
     */
    static String checkpointGid(SqlSinkSettings settings, int subtask, long epoch, long seq) {
        return prefix(settings)
                + CHECKPOINT
                + settings.run()
                + "_"
                + subtask
                + "_"
                + epoch
                + "_"
                + seq;
    }

    /**
     * The transactions of continuous runs of this pipeline and sink that are prepared, with what
     * their ids say of them.
     */
    static Map<String, SqlStagingWriter.StagingMeta> checkpointTransactions(
            Connection c, SqlSinkSettings settings) throws SQLException {
        String prefix = prefix(settings) + CHECKPOINT;
        Map<String, SqlStagingWriter.StagingMeta> out = new LinkedHashMap<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT gid FROM pg_catalog.pg_prepared_xacts"
                                + " WHERE database = current_database() AND starts_with(gid, ?)"
                                + " ORDER BY gid")) {
            st.setString(1, prefix);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String gid = rs.getString(1);
                    String[] parts = gid.substring(prefix.length()).split("_");
                    try {
                        out.put(
                                gid,
                                new SqlStagingWriter.StagingMeta(
                                        settings.pipeline(),
                                        settings.sink(),
                                        Long.parseLong(parts[0]),
                                        Integer.parseInt(parts[1]),
                                        Long.parseLong(parts[2]),
                                        Long.parseLong(parts[3])));
                    } catch (RuntimeException e) {
                        // not an id Skippr made, though it starts like one
                    }
                }
            }
        }
        return out;
    }

    /**
     * Whether a writer of this run may load its rows straight into the targets: a bounded run in
     * append or the default mode (whose streams with a key load directly only into an empty target,
     * see {@link PgPreparedLoader}) or, unless switched off ({@link #CONTINUOUS_SWITCH}), a
     * continuous run in append mode, on a server with {@code max_prepared_transactions > 0}, not
     * switched off.
     */
    static boolean usable(SqlSinkSettings settings, Connection c) throws SQLException {
        if (settings.deadletterRun() > 0 // its commit deletes rows first: staging
                || (settings.mode() != WriteMode.APPEND && settings.mode() != WriteMode.DEFAULT)
                || (!settings.bounded()
                        && (settings.mode() != WriteMode.APPEND
                                || "false".equals(System.getProperty(CONTINUOUS_SWITCH))))
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
     *
     * <p>Ids an earlier Skippr wrote ({@link #legacyPrefix}) do not say which schema they load: one
     * is this sink's when it holds a lock on a table of this sink's schema (its rows' target, the
     * marker table, a staging table), and is then finished by the same rule. One that holds no
     * table lock anywhere changed no table and is rolled back; one that holds locks only in other
     * schemas is another pipeline's of the same names, and is left to that pipeline's next start.
     */
    static void finishLeft(Connection c, SqlSinkSettings settings) throws SQLException {
        lock(c, settings, true);
        try {
            finishLeftLocked(c, settings);
        } finally {
            lock(c, settings, false);
        }
    }

    /** What a prepared transaction holds locks on: a table of this schema, of another schema. */
    private record Left(String gid, boolean here, boolean elsewhere) {}

    private static void finishLeftLocked(Connection c, SqlSinkSettings settings)
            throws SQLException {
        String prefix = prefix(settings);
        String legacy = legacyPrefix(settings);
        String tables =
                "SELECT 1 FROM pg_catalog.pg_locks l"
                        + " JOIN pg_catalog.pg_class r ON r.oid = l.relation"
                        + " JOIN pg_catalog.pg_namespace n ON n.oid = r.relnamespace"
                        + " WHERE l.virtualtransaction = v.virtualtransaction AND l.pid IS NULL"
                        + " AND n.nspname ";
        List<Left> left = new ArrayList<>();
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT x.gid, EXISTS ("
                                + tables
                                + "= ?), EXISTS ("
                                + tables
                                + "<> ? AND n.nspname NOT IN ('pg_catalog', 'pg_toast'))"
                                + " FROM pg_catalog.pg_prepared_xacts x"
                                + " LEFT JOIN LATERAL (SELECT t.virtualtransaction"
                                + " FROM pg_catalog.pg_locks t WHERE t.locktype = 'transactionid'"
                                + " AND t.transactionid = x.transaction AND t.pid IS NULL LIMIT 1)"
                                + " v ON true"
                                + " WHERE x.database = current_database()"
                                + " AND (starts_with(x.gid, ?) OR starts_with(x.gid, ?))"
                                + " ORDER BY x.gid")) {
            st.setString(1, settings.schema());
            st.setString(2, settings.schema());
            st.setString(3, prefix);
            st.setString(4, legacy);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    left.add(new Left(rs.getString(1), rs.getBoolean(2), rs.getBoolean(3)));
                }
            }
        }
        MarkerTable markers = new MarkerTable(settings);
        for (Left l : left) {
            boolean current = l.gid().startsWith(prefix);
            if (!current && !l.here() && l.elsewhere()) {
                continue; // an earlier Skippr's, of a pipeline of these names in another schema
            }
            String rest = l.gid().substring(current ? prefix.length() : legacy.length());
            if (current && rest.startsWith(CHECKPOINT)) {
                // a continuous run's checkpoint: never committed, since its marker row is in it. A
                // bounded run starts from the committed positions and drops all staging, so it
                // rolls it back; a continuous start leaves it to its writers, which keep what the
                // checkpoint they restore holds (SqlStagingWriter)
                if (settings.bounded()) {
                    finish(c, l.gid(), false);
                }
                continue;
            }
            String[] parts = rest.split("_");
            long run;
            try {
                run = Long.parseLong(parts[0]);
            } catch (NumberFormatException e) {
                continue; // not an id Skippr made, though it starts like one
            }
            boolean decided = (current || l.here()) && markers.boundedRunCommitted(c, run);
            finish(c, l.gid(), decided);
        }
    }
}
