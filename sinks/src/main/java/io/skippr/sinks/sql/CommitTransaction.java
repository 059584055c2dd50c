package io.skippr.sinks.sql;

import io.skippr.core.record.Column;
import io.skippr.core.record.CommittedPosition;
import io.skippr.core.record.StreamSchema;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The commit of DESIGN §6 for SQL sinks, as one database transaction: create the schema and marker
 * table if missing; for each stream create or evolve the target table ({@link TargetTables}) and
 * move the staged rows in per write mode; insert the marker row(s); drop the staging tables. If the
 * marker is already there, nothing is moved: the commit happened before.
 *
 * <p>Assumptions: the staging tables of a commit are complete (the writer finished them before
 * handing on their committables); nobody else writes staging tables or marker rows of this pipeline
 * and sink; a run number is used by one job at a time.
 */
public final class CommitTransaction {
    private final SqlSinkSettings settings;
    private final SqlDialect dialect;
    private final SqlNames names;
    private final MarkerTable markers;
    private final TargetTables targets;

    public CommitTransaction(SqlSinkSettings settings) {
        this.settings = settings;
        this.dialect = settings.dialect();
        this.names = dialect.names();
        this.markers = new MarkerTable(settings);
        this.targets = new TargetTables(settings);
    }

    /** A commit's committables in the order their rows were written. */
    static final Comparator<SqlCommittable> ORDER =
            Comparator.comparingLong(SqlCommittable::run)
                    .thenComparingLong(SqlCommittable::checkpoint)
                    .thenComparingInt(SqlCommittable::subtask)
                    .thenComparingLong(SqlCommittable::seq);

    /**
     * Commits one marker's worth of committables: in a continuous run those of one (run,
     * checkpoint, subtask); in a bounded run all of the run's, which must include every subtask's
     * end.
     *
     * @return false if the marker table shows this commit happened before (nothing was changed but
     *     leftover staging tables dropped)
     */
    public boolean commit(Connection c, List<SqlCommittable> committables) throws SQLException {
        List<SqlCommittable> sorted = committables.stream().sorted(ORDER).toList();
        List<String> prepared =
                sorted.stream()
                        .filter(x -> x.kind() == SqlCommittable.Kind.PREPARED)
                        .map(SqlCommittable::staging)
                        .distinct()
                        .toList();
        boolean autoCommit = c.getAutoCommit();
        boolean done;
        c.setAutoCommit(false);
        try {
            markers.ensure(c);
            if (committedBefore(c, sorted)) {
                dropStaging(c, sorted);
                c.commit();
                done = false;
            } else {
                List<MarkerTable.Marker> rows = markerRows(sorted);
                checkStaging(c, sorted);
                Map<String, List<SqlCommittable>> byTable = new TreeMap<>();
                for (SqlCommittable committable : sorted) {
                    if (committable.kind() != SqlCommittable.Kind.END) {
                        byTable.computeIfAbsent(
                                        names.table(committable.stream()), t -> new ArrayList<>())
                                .add(committable);
                    }
                }
                for (Map.Entry<String, List<SqlCommittable>> e : byTable.entrySet()) {
                    apply(c, e.getKey(), e.getValue());
                }
                for (MarkerTable.Marker marker : rows) {
                    markers.insert(c, marker);
                }
                dropStaging(c, sorted);
                c.commit();
                done = true;
            }
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            if (e instanceof SqlSinkException) {
                // refused for good: the run is over, so its prepared rows must not hold locks
                finishPrepared(c, prepared, false, e);
            }
            c.setAutoCommit(autoCommit);
            throw e;
        }
        // The marker rows are committed: the prepared rows are part of the run now (a crash
        // before this ends is finished by SqlDatabase#finishLeftPrepared on the next start).
        c.setAutoCommit(true);
        for (String gid : prepared) {
            settings.database().finishPrepared(c, gid, true);
        }
        c.setAutoCommit(autoCommit);
        return done;
    }

    /** Rolls back (or commits) prepared transactions, keeping failures as suppressed ones. */
    private void finishPrepared(Connection c, List<String> gids, boolean commit, Exception cause) {
        for (String gid : gids) {
            try {
                c.setAutoCommit(true);
                settings.database().finishPrepared(c, gid, commit);
            } catch (SQLException | RuntimeException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }

    private boolean committedBefore(Connection c, List<SqlCommittable> sorted) throws SQLException {
        SqlCommittable first = sorted.get(0);
        return settings.bounded()
                ? markers.boundedRunCommitted(c, first.run())
                : markers.committed(c, first.run(), first.checkpoint(), first.subtask());
    }

    /** Streaming: one row for the (run, checkpoint, subtask); bounded: one per subtask. */
    private List<MarkerTable.Marker> markerRows(List<SqlCommittable> sorted) {
        SqlCommittable first = sorted.get(0);
        if (!settings.bounded()) {
            return List.of(marker(first, sorted));
        }
        List<SqlCommittable> ends =
                sorted.stream().filter(c -> c.kind() == SqlCommittable.Kind.END).toList();
        int parallelism = ends.isEmpty() ? first.parallelism() : ends.get(0).parallelism();
        Set<Integer> seen = new TreeSet<>();
        ends.forEach(e -> seen.add(e.subtask()));
        if (seen.size() != parallelism) {
            throw new SqlSinkException(
                    "Bounded run "
                            + first.run()
                            + " of pipeline "
                            + settings.pipeline()
                            + " reached its commit with the ends of subtasks "
                            + seen
                            + " of "
                            + parallelism
                            + ": refusing to commit part of a run");
        }
        List<MarkerTable.Marker> rows = new ArrayList<>();
        for (SqlCommittable end : ends) {
            rows.add(
                    marker(
                            end,
                            sorted.stream().filter(c -> c.subtask() == end.subtask()).toList()));
        }
        return rows;
    }

    /**
     * The marker row of {@code of}. Its {@code rows} counts the rows a rerun would add again: those
     * of streams the write mode appends; a merged stream's rows replace what is there and are not
     * counted, so a {@code --once} run after continuous runs of keyed streams is not refused.
     */
    private MarkerTable.Marker marker(SqlCommittable key, List<SqlCommittable> of) {
        long rows = 0;
        Map<String, CommittedPosition> positions = new TreeMap<>();
        for (SqlCommittable c : of) {
            if (c.schema() != null && settings.mode().appends(c.schema())) {
                rows += c.rows();
            }
            if (c.kind() == SqlCommittable.Kind.END && MarkerTable.READ.equals(c.cursorType())) {
                MarkerTable.fromJson(c.cursor())
                        .forEach((s, p) -> positions.merge(s, p, CommittedPosition::combine));
            } else if (c.cursor() != null) {
                positions.merge(
                        c.stream(),
                        new CommittedPosition(c.cursorType(), c.cursor()),
                        CommittedPosition::combine);
            }
        }
        return new MarkerTable.Marker(
                key.run(), key.checkpoint(), key.subtask(), key.parallelism(), rows, positions);
    }

    private void checkStaging(Connection c, List<SqlCommittable> sorted) throws SQLException {
        for (SqlCommittable committable : sorted) {
            if (committable.kind() == SqlCommittable.Kind.PREPARED
                    && !settings.database().isPrepared(c, committable.staging())) {
                throw new SqlSinkException(
                        "Prepared transaction "
                                + committable.staging()
                                + " with "
                                + committable.rows()
                                + " rows of stream "
                                + committable.stream()
                                + " (run "
                                + committable.run()
                                + ", subtask "
                                + committable.subtask()
                                + ") is gone, and "
                                + settings.qualified(SqlNames.MARKER_TABLE)
                                + " records no commit of it: it was rolled back while the run"
                                + " waited for its commit");
            }
            if (committable.kind() == SqlCommittable.Kind.ROWS
                    && dialect.columns(c, settings.schema(), committable.staging()) == null) {
                throw new SqlSinkException(
                        "Staging table "
                                + settings.qualified(committable.staging())
                                + " with "
                                + committable.rows()
                                + " rows of stream "
                                + committable.stream()
                                + " (run "
                                + committable.run()
                                + ", subtask "
                                + committable.subtask()
                                + ", checkpoint "
                                + committable.checkpoint()
                                + ") is gone, and "
                                + settings.qualified(SqlNames.MARKER_TABLE)
                                + " records no commit of it: it was dropped while the pipeline"
                                + " ran (or by a --once run of the same pipeline and sink)");
            }
        }
    }

    /**
     * Moves the staged rows of {@code committables} (all of one target table) into {@code table}
     * per write mode, creating or evolving it first; the caller's transaction decides whether it
     * stays ({@link SqlLoadProbe} always rolls it back).
     */
    void apply(Connection c, String table, List<SqlCommittable> committables) throws SQLException {
        List<StreamSchema> schemas = new ArrayList<>();
        for (SqlCommittable committable : committables) {
            if (!schemas.contains(committable.schema())) {
                schemas.add(committable.schema());
            }
        }
        List<SqlCommittable> rows =
                committables.stream().filter(x -> x.kind() == SqlCommittable.Kind.ROWS).toList();
        switch (settings.mode().of(schemas.get(schemas.size() - 1))) {
            case APPEND -> {
                LinkedHashMap<String, String> columns = null;
                for (StreamSchema schema : schemas) {
                    columns = targets.ensure(c, table, schema, List.of());
                }
                insert(c, table, columns, rows);
            }
            case MERGE -> {
                StreamSchema last = schemas.get(schemas.size() - 1);
                List<String> key = targets.key(last);
                if (key.isEmpty()) {
                    throw new SqlSinkException(mergeNeedsKey(settings, last.stream()));
                }
                LinkedHashMap<String, String> columns = null;
                for (StreamSchema schema : schemas) {
                    columns = targets.ensure(c, table, schema, key);
                }
                merge(c, table, columns, key, schemas, rows);
            }
            case REPLACE -> replace(c, table, schemas, rows);
        }
    }

    /** The message for a merge into a stream that has no primary key. */
    public static String mergeNeedsKey(SqlSinkSettings settings, String stream) {
        return "write_mode merge upserts on the source's primary key, and stream "
                + stream
                + " has none: give the source table a primary key, or use write_mode append or"
                + " replace for pipeline "
                + settings.pipeline();
    }

    private void insert(
            Connection c,
            String table,
            LinkedHashMap<String, String> target,
            List<SqlCommittable> rows)
            throws SQLException {
        for (SqlCommittable committable : rows) {
            List<String> columns = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (Column column : committable.schema().columns()) {
                String name = names.column(column.name());
                columns.add(dialect.quote(name));
                String staged = dialect.columnType(column.type());
                String type = target.get(name);
                values.add(
                        staged.equals(type)
                                ? dialect.quote(name)
                                : "CAST(" + dialect.quote(name) + " AS " + type + ")");
            }
            columns.add(dialect.quote(SqlNames.ID));
            columns.add(dialect.quote(SqlNames.SYNCED_AT));
            values.add(dialect.quote(SqlNames.ID));
            values.add(dialect.quote(SqlNames.SYNCED_AT));
            MarkerTable.execute(
                    c,
                    "INSERT INTO "
                            + settings.qualified(table)
                            + " ("
                            + String.join(", ", columns)
                            + ") SELECT "
                            + String.join(", ", values)
                            + " FROM "
                            + settings.qualified(committable.staging()));
        }
    }

    private void merge(
            Connection c,
            String table,
            LinkedHashMap<String, String> target,
            List<String> key,
            List<StreamSchema> schemas,
            List<SqlCommittable> rows)
            throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        List<String> columns = new ArrayList<>();
        for (StreamSchema schema : schemas) {
            for (Column column : schema.columns()) {
                String name = names.column(column.name());
                if (!columns.contains(name)) {
                    columns.add(name);
                }
            }
        }
        List<String> selects = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            SqlCommittable committable = rows.get(i);
            Set<String> staged =
                    committable.schema().columns().stream()
                            .map(col -> names.column(col.name()))
                            .collect(Collectors.toSet());
            List<String> values = new ArrayList<>();
            for (String name : columns) {
                values.add(
                        "CAST("
                                + (staged.contains(name) ? dialect.quote(name) : "NULL")
                                + " AS "
                                + target.get(name)
                                + ") AS "
                                + dialect.quote(name));
            }
            for (String own : List.of(SqlNames.ID, SqlNames.SYNCED_AT, SqlNames.DELETED)) {
                values.add(dialect.quote(own));
            }
            values.add(i + " AS _skippr_rank");
            values.add(dialect.quote(SqlNames.SEQ));
            selects.add(
                    "SELECT "
                            + String.join(", ", values)
                            + " FROM "
                            + settings.qualified(committable.staging()));
        }
        List<String> order = new ArrayList<>();
        StreamSchema last = schemas.get(schemas.size() - 1);
        String cursor = null;
        if (last.cursorColumn() != null) {
            cursor = dialect.quote(names.column(last.cursorColumn()));
            order.add(cursor);
        }
        order.add("_skippr_rank");
        order.add(dialect.quote(SqlNames.SEQ));
        MarkerTable.execute(
                c,
                dialect.merge(
                        settings.qualified(table),
                        String.join(" UNION ALL ", selects),
                        key,
                        columns,
                        order,
                        cursor));
    }

    /**
     * Builds the stream's new table from this commit's rows and swaps it in. A table that views
     * depend on cannot be dropped: it is emptied and refilled instead, in the same transaction.
     */
    private void replace(
            Connection c, String table, List<StreamSchema> schemas, List<SqlCommittable> rows)
            throws SQLException {
        boolean exists = dialect.columns(c, settings.schema(), table) != null;
        if (exists && dialect.hasDependents(c, settings.schema(), table)) {
            LinkedHashMap<String, String> columns = null;
            for (StreamSchema schema : schemas) {
                columns = targets.ensure(c, table, schema, List.of());
            }
            MarkerTable.execute(c, "TRUNCATE " + settings.qualified(table));
            insert(c, table, columns, rows);
            return;
        }
        String replacement = SqlNames.replacement(table);
        MarkerTable.execute(c, "DROP TABLE IF EXISTS " + settings.qualified(replacement));
        LinkedHashMap<String, String> columns = null;
        for (StreamSchema schema : schemas) {
            columns = targets.ensure(c, replacement, schema, List.of());
        }
        insert(c, replacement, columns, rows);
        dialect.swap(c, settings.schema(), table, replacement);
    }

    private void dropStaging(Connection c, List<SqlCommittable> sorted) throws SQLException {
        for (SqlCommittable committable : sorted) {
            if (committable.kind() == SqlCommittable.Kind.ROWS) {
                MarkerTable.execute(
                        c, "DROP TABLE IF EXISTS " + settings.qualified(committable.staging()));
            }
        }
    }
}
