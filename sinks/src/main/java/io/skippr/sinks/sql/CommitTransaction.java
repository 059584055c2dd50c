package io.skippr.sinks.sql;

import io.skippr.core.record.Column;
import io.skippr.core.record.CommittedPosition;
import io.skippr.core.record.Deadletter;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

    private final FailPoint.Trigger failures;

    /** Schema versions without rows whose target was locked at their commit (continuous). */
    private List<StreamSchema> unsettled = List.of();

    private static final Logger LOG = LoggerFactory.getLogger(CommitTransaction.class);

    public CommitTransaction(SqlSinkSettings settings) {
        this(settings, FailPoint.NONE);
    }

    public CommitTransaction(SqlSinkSettings settings, FailPoint failPoint) {
        this.failures = failPoint.trigger();
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
        if (!prepared.isEmpty()) {
            return settings.bounded()
                    ? commitPrepared(c, sorted, prepared)
                    : commitCheckpoint(c, sorted, prepared);
        }
        boolean autoCommit = c.getAutoCommit();
        boolean ddlFirst = !dialect.transactionalDdl();
        boolean done;
        if (ddlFirst) {
            c.setAutoCommit(true);
            try {
                ddlFirst(c, sorted);
            } catch (SQLException | RuntimeException e) {
                c.setAutoCommit(autoCommit);
                throw e;
            }
        }
        c.setAutoCommit(false);
        try {
            if (!ddlFirst) {
                markers.ensure(c);
            }
            dialect.beginCommit(c, settings.qualified(SqlNames.MARKER_TABLE));
            if (committedBefore(c, sorted)) {
                if (!ddlFirst) {
                    dropStaging(c, sorted);
                }
                c.commit();
                done = false;
            } else {
                moveAndMark(c, sorted);
                c.commit();
                done = true;
            }
            if (ddlFirst) {
                c.setAutoCommit(true);
                dropStaging(c, sorted);
            }
            settings.database().staging().committed(settings, sorted);
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            c.setAutoCommit(autoCommit);
            throw e;
        }
        c.setAutoCommit(autoCommit);
        return done;
    }

    /**
     * The body of a commit, in the caller's transaction: checks the staged parts are there, moves
     * them into their targets, inserts the marker rows and drops the staging tables.
     */
    private void moveAndMark(Connection c, List<SqlCommittable> sorted) throws SQLException {
        List<MarkerTable.Marker> rows = markerRows(sorted);
        checkStaging(c, sorted);
        applyAll(c, sorted);
        markers.insert(c, rows);
        if (dialect.transactionalDdl()) {
            dropStaging(c, sorted);
        }
    }

    /**
     * Where DDL commits by itself (Snowflake, {@link SqlDialect#transactionalDdl}), the commit's
     * DDL runs before its transaction, each statement on its own and safe to repeat: the schema and
     * marker table, the staging tables the transaction loads, and the target tables created or
     * evolved for every schema version the commit brings. The transaction then runs DML only, so
     * nothing in it commits part of it early; a stop in between leaves at most empty tables and
     * added nullable columns, which the next attempt uses as they are.
     */
    private void ddlFirst(Connection c, List<SqlCommittable> sorted) throws SQLException {
        markers.ensure(c);
        Map<String, List<StreamSchema>> byTable = new TreeMap<>();
        for (SqlCommittable committable : sorted) {
            if (committable.kind() == SqlCommittable.Kind.ROWS) {
                MarkerTable.execute(
                        c,
                        StagingTable.of(dialect, settings.schema(), committable).create(dialect));
            }
            if (committable.kind() != SqlCommittable.Kind.END) {
                List<StreamSchema> schemas =
                        byTable.computeIfAbsent(
                                names.table(committable.stream()), t -> new ArrayList<>());
                if (!schemas.contains(committable.schema())) {
                    schemas.add(committable.schema());
                }
            }
        }
        for (Map.Entry<String, List<StreamSchema>> e : byTable.entrySet()) {
            List<StreamSchema> schemas = e.getValue();
            StreamSchema last = schemas.get(schemas.size() - 1);
            List<String> key =
                    settings.mode().of(last) == WriteMode.MERGE ? targets.key(last) : List.of();
            if (settings.mode().of(last) == WriteMode.MERGE && key.isEmpty()) {
                continue; // the transaction refuses it (mergeNeedsKey)
            }
            for (StreamSchema schema : schemas) {
                targets.ensure(c, e.getKey(), schema, key);
            }
        }
    }

    private void applyAll(Connection c, List<SqlCommittable> sorted) throws SQLException {
        Map<String, List<SqlCommittable>> byTable = new TreeMap<>();
        for (SqlCommittable committable : sorted) {
            if (committable.kind() != SqlCommittable.Kind.END) {
                byTable.computeIfAbsent(names.table(committable.stream()), t -> new ArrayList<>())
                        .add(committable);
            }
        }
        for (Map.Entry<String, List<SqlCommittable>> e : byTable.entrySet()) {
            apply(c, e.getKey(), e.getValue());
        }
    }

    /**
     * A bounded run whose writers prepared transactions (PostgreSQL's fast path, DESIGN §6). Each
     * writer's prepared transaction holds its rows and its own marker row with its positions. The
     * steps:
     *
     * <ol>
     *   <li>this commit's own transaction moves the staged rows, inserts the marker rows of the
     *       subtasks that prepared nothing, drops the staging tables, and is itself prepared (id
     *       {@link SqlDatabase#preparedCommitId}): nothing is visible yet;
     *   <li>{@code COMMIT PREPARED} of each writer's transaction, then of the commit's own. The
     *       first one makes a marker row of the run visible: from then on the run is decided, and
     *       whatever of it is still prepared is committed, by this commit, its replay, or the next
     *       start ({@link SqlDatabase#finishLeftPrepared}); before it, nothing of the run is
     *       visible, and a replay or the next start rolls all of it back.
     * </ol>
     *
     * <p>Rows, their marker row and its positions are in the same transaction, so no stop between
     * two steps shows a position without its rows or rows without their position. (A subtask whose
     * streams were partly staged is the exception: its staged rows become visible in the last step,
     * after its marker.) Every {@code COMMIT PREPARED} is checked: one that finds its transaction
     * gone fails the commit, naming it. The whole sequence holds the pipeline and sink's lock
     * ({@link SqlDatabase#lockPrepared}), which the start of another run takes too.
     */
    private boolean commitPrepared(Connection c, List<SqlCommittable> sorted, List<String> prepared)
            throws SQLException {
        return underPreparedLock(
                c, () -> commitPreparedLocked(c, sorted, prepared, decided(c, sorted)));
    }

    private boolean commitPreparedLocked(
            Connection c, List<SqlCommittable> sorted, List<String> prepared, boolean decided)
            throws SQLException {
        SqlDatabase db = settings.database();
        long run = sorted.get(0).run();
        String own = db.preparedCommitId(settings, run);
        if (decided) {
            finishDecided(c, sorted, prepared, own);
            return false;
        }
        // an earlier attempt's, stopped before the run was decided
        db.finishPrepared(c, own, false);
        c.setAutoCommit(false);
        try {
            moveAndMark(c, sorted);
            db.prepare(c, own);
        } catch (SQLException | RuntimeException e) {
            rollback(c, e);
            if (e instanceof SqlSinkException) {
                // refused for good: the run is over, so its prepared rows must not hold locks
                finishPrepared(c, prepared, false, e);
            }
            throw e;
        }
        c.setAutoCommit(true);
        reached(FailPoint.Stage.BEFORE_COMMIT_PREPARED);
        String first = prepared.get(0);
        if (!db.finishPrepared(c, first, true)) {
            // nothing of the run is visible: it is not decided, so none of it may commit
            SqlSinkException gone =
                    new SqlSinkException(
                            gone(sorted, first)
                                    + ". Nothing of run "
                                    + run
                                    + " was committed (the rest is rolled back): run the"
                                    + " pipeline again");
            List<String> rest = new ArrayList<>(prepared.subList(1, prepared.size()));
            rest.add(own);
            finishPrepared(c, rest, false, gone);
            throw gone;
        }
        reached(FailPoint.Stage.AFTER_COMMIT_PREPARED);
        List<String> missing = new ArrayList<>();
        for (String gid : prepared.subList(1, prepared.size())) {
            if (!db.finishPrepared(c, gid, true)) {
                missing.add(gid);
            }
            reached(FailPoint.Stage.AFTER_COMMIT_PREPARED);
        }
        if (!db.finishPrepared(c, own, true)) {
            missing.add(own);
        }
        if (!missing.isEmpty()) {
            throw lost(sorted, missing, run);
        }
        return true;
    }

    /** A commit's body that runs under the lock of this pipeline and sink's prepared ones. */
    private interface Locked {
        boolean run() throws SQLException;
    }

    /**
     * Runs {@code body} in auto-commit holding the pipeline and sink's lock ({@link
     * SqlDatabase#lockPrepared}), then releases it and restores the connection's auto-commit.
     */
    private boolean underPreparedLock(Connection c, Locked body) throws SQLException {
        SqlDatabase db = settings.database();
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(true);
        db.lockPrepared(c, settings, true);
        try {
            return body.run();
        } finally {
            try {
                c.setAutoCommit(true);
                db.lockPrepared(c, settings, false);
                c.setAutoCommit(autoCommit);
            } catch (SQLException ignored) {
                // a broken connection: its session, and the lock with it, is gone
            }
        }
    }

    /**
     * Whether the commit of {@code sorted} happened (its marker row is visible), read in a
     * transaction of its own after creating the marker table if missing; in auto-commit after.
     */
    private boolean decided(Connection c, List<SqlCommittable> sorted) throws SQLException {
        SqlCommittable first = sorted.get(0);
        c.setAutoCommit(false);
        try {
            markers.ensure(c);
            boolean decided =
                    settings.bounded()
                            ? markers.boundedRunCommitted(c, first.run())
                            : markers.committed(
                                    c, first.run(), first.checkpoint(), first.subtask());
            c.commit();
            c.setAutoCommit(true);
            return decided;
        } catch (SQLException | RuntimeException e) {
            rollback(c, e);
            throw e;
        }
    }

    /**
     * One (run, checkpoint, subtask) of a continuous run whose writer prepared a transaction
     * (PostgreSQL's fast path, DESIGN §6): it holds all of the checkpoint's rows (staged ones moved
     * into their targets in it, those whose target needs DDL marked as owed), its marker row and
     * positions, so its {@code COMMIT PREPARED} is the commit. If the marker row is visible, that
     * happened before. Afterwards, also on a replay, the owed rows are moved and the targets of
     * schemas without rows created or evolved ({@link SqlDatabase#settleOwed}), giving up on a
     * target another transaction holds a lock on (the DDL would wait for a prepared transaction's
     * lock until its COMMIT PREPARED): its owed rows are moved at a later commit or start, its
     * schemas without rows tried again at this committer's next commit. Holds the pipeline and
     * sink's lock ({@link SqlDatabase#lockPrepared}); a transaction that is gone with no marker row
     * of it fails the commit, naming it.
     */
    private boolean commitCheckpoint(
            Connection c, List<SqlCommittable> sorted, List<String> prepared) throws SQLException {
        return underPreparedLock(
                c,
                () -> {
                    boolean decided = decided(c, sorted);
                    if (!decided) {
                        commitCheckpointPrepared(c, sorted, prepared);
                    }
                    List<StreamSchema> schemas = new ArrayList<>(unsettled);
                    for (SqlCommittable x : sorted) {
                        if (x.kind() == SqlCommittable.Kind.SCHEMA
                                && !schemas.contains(x.schema())) {
                            schemas.add(x.schema());
                        }
                    }
                    unsettled = settings.database().settleOwed(c, settings, schemas);
                    if (!unsettled.isEmpty()) {
                        LOG.info(
                                "The DDL of {} schema versions without rows waits for a lock on"
                                        + " their tables; it is tried again at the next commit",
                                unsettled.size());
                    }
                    return !decided;
                });
    }

    /** The COMMIT PREPARED of a continuous checkpoint not committed before; in auto-commit. */
    private void commitCheckpointPrepared(
            Connection c, List<SqlCommittable> sorted, List<String> prepared) throws SQLException {
        SqlCommittable first = sorted.get(0);
        SqlDatabase db = settings.database();
        reached(FailPoint.Stage.BEFORE_COMMIT_PREPARED);
        for (String gid : prepared) {
            if (!db.finishPrepared(c, gid, true)) {
                throw new SqlSinkException(
                        gone(sorted, gid)
                                + ", and "
                                + settings.qualified(SqlNames.MARKER_TABLE)
                                + " records no commit of checkpoint "
                                + first.checkpoint()
                                + " of run "
                                + first.run()
                                + ": its rows are not in the target");
            }
            reached(FailPoint.Stage.AFTER_COMMIT_PREPARED);
        }
    }

    /**
     * Commits what a decided run still has prepared (a replay after a stop between two COMMIT
     * PREPAREDs), and checks that each part of it did commit: a writer's transaction by its marker
     * row, the commit's own by its staging tables being gone.
     */
    private void finishDecided(
            Connection c, List<SqlCommittable> sorted, List<String> prepared, String own)
            throws SQLException {
        SqlDatabase db = settings.database();
        List<String> missing = new ArrayList<>();
        for (SqlCommittable p : sorted) {
            if (p.kind() == SqlCommittable.Kind.PREPARED
                    && !db.finishPrepared(c, p.staging(), true)
                    && !markers.committed(c, p.run(), p.checkpoint(), p.subtask())
                    && !missing.contains(p.staging())) {
                missing.add(p.staging());
            }
        }
        if (!db.finishPrepared(c, own, true)) {
            for (SqlCommittable r : sorted) {
                if (r.kind() == SqlCommittable.Kind.ROWS
                        && dialect.columns(c, settings.schema(), r.staging()) != null) {
                    missing.add(own);
                    break;
                }
            }
        }
        if (!missing.isEmpty()) {
            throw lost(sorted, missing, sorted.get(0).run());
        }
    }

    /** What a prepared transaction that is gone held. */
    private String gone(List<SqlCommittable> sorted, String gid) {
        long rows =
                sorted.stream()
                        .filter(x -> x.kind() == SqlCommittable.Kind.PREPARED)
                        .filter(x -> x.staging().equals(gid))
                        .mapToLong(SqlCommittable::rows)
                        .sum();
        return "Prepared transaction "
                + gid
                + (rows > 0 ? " with " + rows + " rows" : "")
                + " was gone when its COMMIT PREPARED ran: it was rolled back outside this"
                + " commit (ROLLBACK PREPARED, or another process of pipeline "
                + settings.pipeline()
                + " and sink "
                + settings.sink()
                + ")";
    }

    private SqlSinkException lost(List<SqlCommittable> sorted, List<String> missing, long run) {
        List<String> each = new ArrayList<>();
        for (String gid : missing) {
            each.add(gone(sorted, gid));
        }
        return new SqlSinkException(
                String.join("; ", each)
                        + ". The rest of run "
                        + run
                        + " is committed; the rows of the missing transactions are not in the"
                        + " target and their marker rows and positions were not recorded, but a"
                        + " position another subtask recorded may lie past them: compare the"
                        + " target with the source before the next run");
    }

    private void reached(FailPoint.Stage stage) throws SQLException {
        try {
            failures.reached(stage);
        } catch (IOException e) {
            throw new SqlSinkException(e.getMessage(), e);
        }
    }

    private static void rollback(Connection c, Exception e) {
        try {
            c.rollback();
        } catch (SQLException suppressed) {
            e.addSuppressed(suppressed);
        }
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

    /**
     * Streaming: one row for the (run, checkpoint, subtask); bounded: one per subtask that prepared
     * no transaction of its own (one that did holds its marker row there).
     */
    private List<MarkerTable.Marker> markerRows(List<SqlCommittable> sorted) {
        SqlCommittable first = sorted.get(0);
        if (!settings.bounded()) {
            return List.of(marker(settings.mode(), first, sorted));
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
        Set<Integer> ownMarker = new TreeSet<>();
        sorted.stream()
                .filter(c -> c.kind() == SqlCommittable.Kind.PREPARED)
                .forEach(c -> ownMarker.add(c.subtask()));
        List<MarkerTable.Marker> rows = new ArrayList<>();
        for (SqlCommittable end : ends) {
            if (ownMarker.contains(end.subtask())) {
                continue; // the subtask's prepared transaction holds its marker row
            }
            rows.add(
                    marker(
                            settings.mode(),
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
    static MarkerTable.Marker marker(WriteMode mode, SqlCommittable key, List<SqlCommittable> of) {
        long rows = 0;
        Map<String, CommittedPosition> positions = new TreeMap<>();
        Map<String, LoadsTable.Load> loads = new TreeMap<>();
        for (SqlCommittable c : of) {
            if (c.schema() != null && mode.appends(c.schema())) {
                rows += c.rows();
            }
            if (c.rows() > 0
                    && (c.kind() == SqlCommittable.Kind.ROWS
                            || c.kind() == SqlCommittable.Kind.PREPARED
                            || c.kind() == SqlCommittable.Kind.HELD)) {
                loads.merge(
                        c.stream(),
                        new LoadsTable.Load(
                                c.stream(),
                                c.rows(),
                                c.checksum(),
                                c.minCursor(),
                                c.cursor(),
                                c.cursorType()),
                        LoadsTable.Load::plus);
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
                key.run(),
                key.checkpoint(),
                key.subtask(),
                key.parallelism(),
                rows,
                positions,
                List.copyOf(loads.values()));
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
                    && !settings.database().staging().load(c, settings, committable)) {
                throw new SqlSinkException(
                        settings.database().staging().describe(settings, committable.staging())
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
                replaceDeadletters(c, table, columns);
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

    /**
     * A deadletter sink's bounded commit: deletes the deadletters of its data run that an earlier
     * attempt committed (its data did not commit, or this run would have another data run), in the
     * transaction that inserts this attempt's, so a repeated run adds no deadletter twice.
     */
    private void replaceDeadletters(
            Connection c, String table, LinkedHashMap<String, String> columns) throws SQLException {
        String dataRun = names.column(Deadletter.DATA_RUN);
        if (!settings.bounded() || settings.deadletterRun() <= 0 || !columns.containsKey(dataRun)) {
            return;
        }
        deleteDataRun(c, settings, table, settings.deadletterRun());
    }

    /**
     * Deletes the rows of data run {@code run} from deadletter table {@code table}; their count.
     */
    static int deleteDataRun(Connection c, SqlSinkSettings settings, String table, long run)
            throws SQLException {
        SqlDialect dialect = settings.dialect();
        try (PreparedStatement st =
                c.prepareStatement(
                        "DELETE FROM "
                                + settings.qualified(table)
                                + " WHERE "
                                + dialect.quote(dialect.names().column(Deadletter.DATA_RUN))
                                + " = ?")) {
            st.setLong(1, run);
            return st.executeUpdate();
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
            MarkerTable.execute(
                    c,
                    targets.appendFrom(
                            table,
                            target,
                            committable.schema(),
                            settings.qualified(committable.staging())));
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
            values.add(dialect.quote(SqlNames.ID));
            values.add(dialect.quote(SqlNames.SYNCED_AT));
            values.add(
                    dialect.quote(committable.deleteRowColumn())
                            + " AS "
                            + dialect.quote(SqlNames.DELETE_ROW));
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
        String staged = String.join(" UNION ALL ", selects);
        if (settings.softDeletes()) {
            staged = softDeletes(table, staged, key, columns);
        }
        for (String statement :
                dialect.mergeStatements(
                        settings.qualified(table), staged, key, columns, order, cursor)) {
            MarkerTable.execute(c, statement);
        }
    }

    /**
     * {@code staged} for a merge with the pipeline's {@code soft_deletes}: no row deletes its key
     * ({@link SqlNames#DELETE_ROW} is false in every row), and a delete's row, which carries {@code
     * _skippr_deleted = true} (change data capture), becomes an upsert that keeps the target row's
     * values where the delete carries none (only its key, under replica identity DEFAULT). The
     * merge's cursor guard applies to it as to any row, so an older change never undoes it, and a
     * later insert of the key sets {@code _skippr_deleted} back to false.
     */
    private String softDeletes(
            String table, String staged, List<String> key, List<String> columns) {
        String row = dialect.quote("_skippr_soft_row");
        String old = dialect.quote("_skippr_soft_old");
        String deleted = row + "." + dialect.quote(SqlNames.DELETE_ROW);
        List<String> values = new ArrayList<>();
        for (String column : columns) {
            String name = dialect.quote(column);
            values.add(
                    key.contains(column)
                            ? row + "." + name
                            : "CASE WHEN "
                                    + deleted
                                    + " THEN COALESCE("
                                    + row
                                    + "."
                                    + name
                                    + ", "
                                    + old
                                    + "."
                                    + name
                                    + ") ELSE "
                                    + row
                                    + "."
                                    + name
                                    + " END AS "
                                    + name);
        }
        values.add(row + "." + dialect.quote(SqlNames.ID));
        values.add(row + "." + dialect.quote(SqlNames.SYNCED_AT));
        values.add("FALSE AS " + dialect.quote(SqlNames.DELETE_ROW));
        values.add(row + "._skippr_rank");
        values.add(row + "." + dialect.quote(SqlNames.SEQ));
        return "SELECT "
                + String.join(", ", values)
                + " FROM ("
                + staged
                + ") "
                + row
                + " LEFT JOIN "
                + settings.qualified(table)
                + " "
                + old
                + " ON "
                + key.stream()
                        .map(
                                k ->
                                        row
                                                + "."
                                                + dialect.quote(k)
                                                + " = "
                                                + old
                                                + "."
                                                + dialect.quote(k))
                        .collect(Collectors.joining(" AND "));
    }

    /**
     * Builds the stream's new table from this commit's rows and swaps it in. A table that views
     * depend on cannot be dropped: it is emptied and refilled instead, in the same transaction.
     */
    private void replace(
            Connection c, String table, List<StreamSchema> schemas, List<SqlCommittable> rows)
            throws SQLException {
        boolean exists = dialect.columns(c, settings.schema(), table) != null;
        if (exists
                && (!dialect.transactionalDdl()
                        || dialect.hasDependents(c, settings.schema(), table))) {
            // no swap where DDL would commit the transaction before its marker row
            LinkedHashMap<String, String> columns = null;
            for (StreamSchema schema : schemas) {
                columns = targets.ensure(c, table, schema, List.of());
            }
            MarkerTable.execute(c, dialect.emptyTable(settings.qualified(table)));
            insert(c, table, columns, rows);
            return;
        }
        targets.refuseDdlInTransaction(c, table);
        String replacement = SqlNames.replacement(table);
        MarkerTable.execute(c, dialect.dropTable(settings.qualified(replacement)));
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
                        c, dialect.dropTable(settings.qualified(committable.staging())));
            }
        }
    }
}
