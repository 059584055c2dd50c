package io.skippr.sinks.postgres;

import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.TargetTables;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The staging tables a continuous run's prepared transactions owe their targets (DESIGN §6): rows
 * of a schema version whose target needs DDL (a new or wider column) are not written into the
 * target inside the checkpoint's transaction, whose locks (and those of every other subtask's
 * prepared one) the DDL would wait on until COMMIT PREPARED; they go into a staging table, which
 * the same transaction marks as owed ({@link SqlStagingWriter#owedComment}), so the mark commits or
 * rolls back with the checkpoint. {@link #settle} then evolves the target and moves the rows in one
 * transaction per target, which also removes the mark (it drops the staging table): after each
 * checkpoint's commit and at every start, and never waiting longer than {@link #LOCK_WAIT} for a
 * lock another transaction holds; a target it cannot lock is left for the next attempt.
 */
final class OwedTables {
    /** How long settling waits for a lock before it leaves a target for a later attempt. */
    static final String LOCK_WAIT = "500ms";

    private OwedTables() {}

    /**
     * Whether any pipeline loading this schema owes {@code target} rows whose move has not happened
     * yet: another pipeline's rows of the same target wait for its locks as much as this one's.
     */
    static boolean pending(Connection c, SqlSinkSettings settings, String target)
            throws SQLException, IOException {
        SqlDialect dialect = settings.dialect();
        for (SqlDialect.StagingInfo info : settings.database().staging().list(c, settings)) {
            StreamSchema schema = SqlStagingWriter.owedSchema(info.comment());
            if (schema != null && dialect.names().table(schema.stream()).equals(target)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Moves the owed tables of this pipeline and sink into their targets and creates or evolves the
     * targets of {@code schemas} (see {@link io.skippr.sinks.sql.SqlDatabase#settleOwed}).
     *
     * @return the schemas whose target was locked
     */
    static List<StreamSchema> settle(
            Connection c, SqlSinkSettings settings, List<StreamSchema> schemas)
            throws SQLException {
        SqlDialect dialect = settings.dialect();
        Map<String, Map<String, StreamSchema>> owed = new TreeMap<>();
        try {
            for (Map.Entry<String, StreamSchema> e :
                    SqlStagingWriter.owedTables(settings, c).entrySet()) {
                owed.computeIfAbsent(
                                dialect.names().table(e.getValue().stream()), t -> new TreeMap<>())
                        .put(e.getKey(), e.getValue());
            }
        } catch (IOException e) {
            throw new SQLException("listing the owed staging tables: " + e.getMessage(), e);
        }
        Map<String, List<StreamSchema>> bare = new TreeMap<>();
        for (StreamSchema schema : schemas) {
            List<StreamSchema> of =
                    bare.computeIfAbsent(
                            dialect.names().table(schema.stream()), t -> new ArrayList<>());
            if (!of.contains(schema)) {
                of.add(schema);
            }
        }
        Set<String> all = new TreeSet<>(owed.keySet());
        all.addAll(bare.keySet());
        List<StreamSchema> left = new ArrayList<>();
        for (String target : all) {
            List<StreamSchema> without = bare.getOrDefault(target, List.of());
            if (!settle(c, settings, target, owed.getOrDefault(target, Map.of()), without)) {
                left.addAll(without);
            }
        }
        return left;
    }

    /**
     * One target's transaction: locks its owed tables, evolves it for their schemas and {@code
     * without}'s, moves their rows and drops them. False, with nothing changed, if a lock was not
     * granted within {@link #LOCK_WAIT} or an owed table was gone (another process settled it).
     */
    private static boolean settle(
            Connection c,
            SqlSinkSettings settings,
            String target,
            Map<String, StreamSchema> owed,
            List<StreamSchema> without)
            throws SQLException {
        SqlDialect dialect = settings.dialect();
        TargetTables targets = new TargetTables(settings);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = '" + LOCK_WAIT + "'");
            for (String table : owed.keySet()) {
                st.execute("LOCK TABLE " + settings.qualified(table) + " IN ACCESS EXCLUSIVE MODE");
            }
            List<StreamSchema> schemas = new ArrayList<>(owed.values());
            schemas.addAll(without);
            LinkedHashMap<String, String> columns = null;
            for (StreamSchema schema : schemas) {
                columns = targets.ensure(c, target, schema, List.of());
            }
            for (Map.Entry<String, StreamSchema> e : owed.entrySet()) {
                String from = settings.qualified(e.getKey());
                st.execute(targets.appendFrom(target, columns, e.getValue(), from));
                st.execute(dialect.dropTable(from));
            }
            c.commit();
            return true;
        } catch (SQLException e) {
            c.rollback();
            if (lockedOrGone(e)) {
                return false;
            }
            throw e;
        } catch (RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    /** A lock not granted in time, a deadlock, or a table another process dropped. */
    private static boolean lockedOrGone(SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        return state.equals("55P03") || state.equals("40P01") || state.equals("42P01");
    }
}
