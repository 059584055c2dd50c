package io.skippr.sinks.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.core.record.CommittedPosition;
import io.skippr.core.record.CommittedPositions;
import io.skippr.core.record.ReadPositions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code _skippr_commits} table in the target schema: one row per committed (run, checkpoint,
 * subtask), inserted in the transaction that moved that commit's rows, so a row exists exactly when
 * its data landed. A bounded run inserts one row per subtask, all in its one transaction, each with
 * the highest cursor value per stream of that subtask's rows ({@code positions}).
 */
public final class MarkerTable {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SqlSinkSettings settings;
    private final String qualified;
    private final LoadsTable loads;

    public MarkerTable(SqlSinkSettings settings) {
        this.settings = settings;
        this.qualified = settings.qualified(SqlNames.MARKER_TABLE);
        this.loads = new LoadsTable(settings);
    }

    /**
     * Creates the target schema, the marker table and the loads table ({@link LoadsTable}) where
     * they are missing.
     */
    public void ensure(Connection c) throws SQLException {
        SqlDialect dialect = settings.dialect();
        if (!dialect.schemaExists(c, settings.schema())) {
            dialect.lockForDdl(c, settings.schema(), "");
            if (!dialect.schemaExists(c, settings.schema())) {
                execute(c, dialect.createSchema(settings.schema()));
            }
        }
        if (dialect.columns(c, settings.schema(), SqlNames.MARKER_TABLE) == null) {
            dialect.lockForDdl(c, settings.schema(), SqlNames.MARKER_TABLE);
            if (dialect.columns(c, settings.schema(), SqlNames.MARKER_TABLE) == null) {
                execute(c, dialect.markerTable(qualified));
            }
        }
        loads.ensure(c);
    }

    /** One above the highest run number of this pipeline and sink, or 1. */
    public long nextRun(Connection c) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT max("
                                + q("run")
                                + ") FROM "
                                + qualified
                                + " WHERE "
                                + q("pipeline")
                                + " = ? AND "
                                + q("sink")
                                + " = ?")) {
            st.setString(1, settings.pipeline());
            st.setString(2, settings.sink());
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1) + 1;
            }
        }
    }

    /** Whether the commit of {@code (run, checkpoint, subtask)} happened. */
    public boolean committed(Connection c, long run, long checkpoint, int subtask)
            throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM "
                                + qualified
                                + " WHERE "
                                + q("pipeline")
                                + " = ? AND "
                                + q("sink")
                                + " = ? AND "
                                + q("run")
                                + " = ? AND "
                                + q("checkpoint")
                                + " = ? AND "
                                + q("subtask")
                                + " = ?")) {
            st.setString(1, settings.pipeline());
            st.setString(2, settings.sink());
            st.setLong(3, run);
            st.setLong(4, checkpoint);
            st.setInt(5, subtask);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Whether bounded run {@code run} committed (all its subtasks did, in one transaction). */
    public boolean boundedRunCommitted(Connection c, long run) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT 1 FROM "
                                + qualified
                                + " WHERE "
                                + q("pipeline")
                                + " = ? AND "
                                + q("sink")
                                + " = ? AND "
                                + q("run")
                                + " = ? AND "
                                + q("bounded")
                                + " = ?")) {
            // compared with a parameter: T-SQL (Synapse) has no boolean expressions of a column
            st.setString(1, settings.pipeline());
            st.setString(2, settings.sink());
            st.setLong(3, run);
            st.setBoolean(4, true);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Whether the last run of this pipeline and sink (the highest in the table) was a bounded run
     * that committed rows: for a deadletter sink, a run whose one transaction replaced every row of
     * its data run with its own.
     */
    public boolean lastRunBoundedWithRows(Connection c) throws SQLException {
        SqlDialect d = settings.dialect();
        String ours = " WHERE " + d.quote("pipeline") + " = ? AND " + d.quote("sink") + " = ?";
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT "
                                + d.quote("bounded")
                                + ", "
                                + d.quote("rows")
                                + " FROM "
                                + qualified
                                + ours
                                + " AND "
                                + d.quote("run")
                                + " = (SELECT max("
                                + d.quote("run")
                                + ") FROM "
                                + qualified
                                + ours
                                + ")")) {
            st.setString(1, settings.pipeline());
            st.setString(2, settings.sink());
            st.setString(3, settings.pipeline());
            st.setString(4, settings.sink());
            boolean bounded = false;
            long rows = 0;
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    bounded = rs.getBoolean(1);
                    rows += rs.getLong(2);
                }
            }
            return bounded && rows > 0;
        }
    }

    /**
     * A marker row to insert, with the loads ({@link LoadsTable}) inserted beside it.
     *
     * @param loads per stream with rows in the commit, what it loaded
     */
    public record Marker(
            long run,
            long checkpoint,
            int subtask,
            int parallelism,
            long rows,
            Map<String, CommittedPosition> positions,
            List<LoadsTable.Load> loads) {}

    /** The type of a position the source sent ({@link ReadPositions}), not a row's cursor. */
    public static final String READ = CommittedPosition.READ;

    /**
     * Inserts {@code rows} in one statement, so that a database whose statements each commit alone
     * (Databricks) never shows part of a bounded run's marker rows; then their loads.
     */
    public void insert(Connection c, List<Marker> rows) throws SQLException {
        if (rows.size() == 1) {
            insert(c, rows.get(0));
            return;
        }
        if (rows.isEmpty()) {
            return;
        }
        insertMarkers(c, rows);
        loads.insert(c, rows);
    }

    private void insertMarkers(Connection c, List<Marker> rows) throws SQLException {
        StringBuilder sql =
                new StringBuilder("INSERT INTO ")
                        .append(qualified)
                        .append(" (")
                        .append(insertColumns())
                        .append(") VALUES");
        for (int i = 0; i < rows.size(); i++) {
            sql.append(i == 0 ? " " : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        }
        try (PreparedStatement st = c.prepareStatement(sql.toString())) {
            int p = 0;
            for (Marker m : rows) {
                st.setString(++p, settings.pipeline());
                st.setString(++p, settings.sink());
                st.setLong(++p, m.run());
                st.setLong(++p, m.checkpoint());
                st.setInt(++p, m.subtask());
                st.setInt(++p, m.parallelism());
                st.setBoolean(++p, settings.bounded());
                st.setString(++p, settings.mode().label());
                st.setLong(++p, m.rows());
                st.setString(++p, toJson(m.positions()));
            }
            st.executeUpdate();
        }
    }

    /** Inserts marker row {@code m}, then its loads. */
    public void insert(Connection c, Marker m) throws SQLException {
        insertMarker(c, m);
        loads.insert(c, List.of(m));
    }

    private void insertMarker(Connection c, Marker m) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "INSERT INTO "
                                + qualified
                                + " ("
                                + insertColumns()
                                + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            st.setString(1, settings.pipeline());
            st.setString(2, settings.sink());
            st.setLong(3, m.run());
            st.setLong(4, m.checkpoint());
            st.setInt(5, m.subtask());
            st.setInt(6, m.parallelism());
            st.setBoolean(7, settings.bounded());
            st.setString(8, settings.mode().label());
            st.setLong(9, m.rows());
            st.setString(10, toJson(m.positions()));
            st.executeUpdate();
        }
    }

    /**
     * Per stream, where the next run starts: the read positions of the latest bounded run that
     * recorded one for it (the union over that run's subtasks), with those of every continuous
     * run's checkpoint committed after it added (the source reads what none of them covers). Empty
     * when the marker table does not exist.
     */
    public Map<String, String> positions(Connection c) throws SQLException {
        return committed(c).positions();
    }

    /**
     * Rows committed by continuous runs after the last bounded run whose marker rows hold no read
     * position (runs of earlier versions, sources without positions): a run that starts from {@link
     * #positions} would load them again.
     */
    public long rowsAfterPositions(Connection c) throws SQLException {
        return committed(c).uncovered();
    }

    private CommittedPositions committed(Connection c) throws SQLException {
        SqlDialect d = settings.dialect();
        CommittedPositions committed = new CommittedPositions();
        if (d.columns(c, settings.schema(), SqlNames.MARKER_TABLE) == null) {
            return committed;
        }
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT "
                                + d.quote("run")
                                + ", "
                                + d.quote("bounded")
                                + ", "
                                + d.quote("rows")
                                + ", "
                                + d.quote("positions")
                                + " FROM "
                                + qualified
                                + " WHERE "
                                + d.quote("pipeline")
                                + " = ? AND "
                                + d.quote("sink")
                                + " = ? ORDER BY "
                                + d.quote("run")
                                + ", "
                                + d.quote("checkpoint"))) {
            st.setString(1, settings.pipeline());
            st.setString(2, settings.sink());
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    Map<String, CommittedPosition> marker = fromJson(rs.getString(4));
                    if (rs.getBoolean(2)) {
                        committed.bounded(rs.getLong(1), marker);
                    } else {
                        committed.continuous(marker, rs.getLong(3));
                    }
                }
            }
        }
        return committed;
    }

    /**
     * Empties the positions of every commit of this pipeline and sink ({@code skipprd reset}): the
     * next run starts from no position, as a first run does. The rows stay, so run numbers go on
     * and a checkpoint's commit is still known to have happened. Returns how many rows it changed.
     */
    public int forgetPositions(Connection c) throws SQLException {
        SqlDialect d = settings.dialect();
        try (PreparedStatement st =
                c.prepareStatement(
                        "UPDATE "
                                + qualified
                                + " SET "
                                + d.quote("positions")
                                + " = ? WHERE "
                                + d.quote("pipeline")
                                + " = ? AND "
                                + d.quote("sink")
                                + " = ?")) {
            st.setString(1, toJson(Map.of()));
            st.setString(2, settings.pipeline());
            st.setString(3, settings.sink());
            return st.executeUpdate();
        }
    }

    /** The JSON of per-stream read positions, as an end committable carries them. */
    static String readPositions(Map<String, String> positions) {
        Map<String, CommittedPosition> typed = new LinkedHashMap<>();
        positions.forEach((stream, p) -> typed.put(stream, CommittedPosition.read(p)));
        return toJson(typed);
    }

    static String toJson(Map<String, CommittedPosition> positions) {
        ObjectNode doc = JSON.createObjectNode();
        positions.forEach(
                (stream, p) -> doc.putObject(stream).put("type", p.type()).put("value", p.value()));
        return doc.toString();
    }

    static Map<String, CommittedPosition> fromJson(String text) {
        Map<String, CommittedPosition> out = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return out;
        }
        try {
            JsonNode doc = JSON.readTree(text);
            doc.fields()
                    .forEachRemaining(
                            e ->
                                    out.put(
                                            e.getKey(),
                                            new CommittedPosition(
                                                    e.getValue().path("type").asText(),
                                                    e.getValue().path("value").asText())));
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable positions in the marker table: " + text, e);
        }
        return out;
    }

    /** The columns a marker row's INSERT names, in its parameters' order, quoted. */
    private String insertColumns() {
        return settings.dialect()
                .quoteAll(
                        List.of(
                                "pipeline",
                                "sink",
                                "run",
                                "checkpoint",
                                "subtask",
                                "parallelism",
                                "bounded",
                                "write_mode",
                                "rows",
                                "positions"));
    }

    /** A column of the marker table, quoted. */
    private String q(String column) {
        return settings.dialect().quote(column);
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }
}
