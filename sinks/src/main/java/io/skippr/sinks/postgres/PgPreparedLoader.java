package io.skippr.sinks.postgres;

import io.skippr.sinks.sql.MarkerTable;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import io.skippr.sinks.sql.TargetTables;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * The fast path of DESIGN §6 for bounded append runs: rows go by binary COPY straight into their
 * target tables inside one transaction per writer, which {@link #finish} prepares ({@code PREPARE
 * TRANSACTION}) under a deterministic id, together with the subtask's marker row and positions; the
 * run's commit commits the prepared transactions ({@code CommitTransaction}). Each row is written
 * once, not staged and copied.
 *
 * <p>A target is created or evolved (as the commit would) in a short transaction of its own before
 * its first row, so no prepared transaction holds a DDL lock another writer waits for; a run that
 * fails may therefore leave a new table or column behind, never a row. A stream whose target
 * columns differ in type from the stream's (an older, wider column) goes through a staging table,
 * as without this path.
 *
 * <p>In a continuous append run (unless switched off, {@link
 * PreparedTransactions#CONTINUOUS_SWITCH}) there is one such transaction per checkpoint, prepared
 * at its barrier with the checkpoint's marker row under {@link PreparedTransactions#checkpointGid};
 * a staged stream's rows are moved into the target, and its staging table dropped, inside it before
 * it is prepared. A target is only created here, never altered: rows whose existing target needs
 * DDL go into a staging table the transaction marks as owed, which {@link OwedTables} moves after
 * the commit; every other target is locked (ROW EXCLUSIVE) in the transaction when its segment
 * opens, so no move changes its columns under it. The writer rolls back the transactions no
 * checkpoint holds when it starts ({@code SqlStagingWriter}).
 *
 * <p>Assumes one writer per (run, subtask) at a time, and that the run has no committed marker yet
 * ({@link PostgresDatabase#loader} checks): a restarted writer rolls back what its earlier attempt
 * prepared.
 */
final class PgPreparedLoader implements StagingLoader {
    private final PostgresDatabase database;
    private final PostgresDialect dialect;
    private final SqlSinkSettings settings;
    private final TargetTables targets;
    private final int subtask;
    private final boolean continuous;
    private String gid;
    private final StagingLoader staging;
    private final Connection data;
    private final CopyManager copy;
    private final Map<String, Target> direct = new HashMap<>();
    private final Map<String, Staged> staged = new LinkedHashMap<>();
    private final Map<String, StagingTable> owed = new LinkedHashMap<>();

    /** Per target, the last checkpoint (counted by this writer) whose rows of it owed DDL. */
    private final Map<String, Long> owedAt = new HashMap<>();

    private long checkpoint;
    private Connection ddl;
    private CopyIn active;
    private String activeTable;
    private boolean prepared;

    private static final class Target {
        final String qualified;
        final String columns;
        final PgCopy encoder;
        final CopyBuffer buffer = new CopyBuffer(64 * 1024);

        Target(String qualified, String columns, PgCopy encoder) {
            this.qualified = qualified;
            this.columns = columns;
            this.encoder = encoder;
        }
    }

    /**
     * A staging table of a continuous run's checkpoint whose rows its transaction moves into the
     * target before it is prepared ({@link #finish}), with the target's columns.
     */
    private record Staged(
            StagingTable table, String target, LinkedHashMap<String, String> columns) {}

    PgPreparedLoader(
            PostgresDatabase database, Connection writer, SqlSinkSettings settings, int subtask)
            throws IOException {
        this.database = database;
        this.dialect = database.dialect();
        this.settings = settings;
        this.targets = new TargetTables(settings);
        this.subtask = subtask;
        this.continuous = !settings.bounded();
        this.gid = continuous ? null : PreparedTransactions.gid(settings, subtask);
        this.staging = new PgCopyLoader(database, writer);
        this.data = database.connect();
        try {
            if (!continuous) {
                // an earlier attempt's, never committed
                PreparedTransactions.finish(data, gid, false);
            }
            data.setAutoCommit(false);
            this.copy = data.unwrap(PGConnection.class).getCopyAPI();
        } catch (SQLException e) {
            closeQuietly(data);
            throw database.failure("starting a load into prepared transaction " + gid, e);
        }
    }

    @Override
    public void create(StagingTable table) throws IOException {
        if (prepared) {
            throw new IllegalStateException("transaction " + gid + " is prepared already");
        }
        if (continuous && gid == null) {
            SqlStagingWriter.StagingMeta meta = SqlStagingWriter.meta(table.comment());
            gid = PreparedTransactions.checkpointGid(settings, subtask, meta.epoch(), meta.seq());
        }
        String target = dialect.names().table(table.schema().stream());
        List<String> key =
                settings.mode().appends(table.schema()) ? List.of() : targets.key(table.schema());
        if (continuous && owes(target, table)) {
            owe(target, table);
            return;
        }
        LinkedHashMap<String, String> columns = ensure(target, table, key);
        if (continuous) {
            columns = lock(target);
            if (!targets.changes(target, columns, table.schema()).isEmpty()) {
                owedAt.put(target, checkpoint); // changed since it was read
                owe(target, table);
                return;
            }
        }
        if (!sameTypes(columns, table) || (!key.isEmpty() && !isEmpty(target))) {
            staging.create(table);
            if (continuous) {
                staged.put(table.name(), new Staged(table, target, columns));
            }
            return;
        }
        List<String> names = new ArrayList<>(table.columns());
        names.addAll(List.of(SqlNames.ID, SqlNames.SYNCED_AT));
        direct.put(
                table.name(),
                new Target(
                        settings.qualified(target),
                        dialect.quoteAll(names),
                        new PgCopy(table.schema(), false)));
    }

    /**
     * Whether a continuous checkpoint's rows of {@code table} go into an owed staging table ({@link
     * OwedTables}) rather than its existing target: when the target needs DDL for them or owes rows
     * already (committed, not moved yet), and for one checkpoint after the last such one (whose
     * owed rows may not have committed yet), so that no transaction of this path holds a lock the
     * DDL waits for. Only the first two reasons extend that checkpoint.
     */
    private boolean owes(String target, StagingTable table) throws IOException {
        try {
            LinkedHashMap<String, String> existing =
                    dialect.columns(ddl(), settings.schema(), target);
            boolean owes =
                    existing != null
                            && (!targets.changes(target, existing, table.schema()).isEmpty()
                                    || OwedTables.pending(ddl, settings, target));
            ddl.commit();
            if (owes) {
                owedAt.put(target, checkpoint);
                return true;
            }
            Long at = owedAt.get(target);
            return at != null && checkpoint - at <= 1;
        } catch (SQLException e) {
            throw database.failure("reading " + settings.qualified(target), e);
        }
    }

    private void owe(String target, StagingTable table) throws IOException {
        staging.create(table);
        owed.put(table.name(), table);
    }

    /**
     * Takes the lock a load into {@code target} takes, in the checkpoint's transaction, and reads
     * its columns under it: an owed table's move cannot change them until the transaction ends.
     */
    private LinkedHashMap<String, String> lock(String target) throws IOException {
        try (Statement st = data.createStatement()) {
            st.execute("LOCK TABLE " + settings.qualified(target) + " IN ROW EXCLUSIVE MODE");
            return dialect.columns(data, settings.schema(), target);
        } catch (SQLException e) {
            throw database.failure("locking " + settings.qualified(target), e);
        }
    }

    /**
     * Whether the target holds no committed row. A merge into an empty target is an append (a run
     * reads each key of a table once), so it may load directly; into a target with rows it must
     * merge through staging.
     */
    private boolean isEmpty(String target) throws IOException {
        try (Statement st = ddl().createStatement();
                java.sql.ResultSet rs =
                        st.executeQuery(
                                "SELECT NOT EXISTS (SELECT 1 FROM "
                                        + settings.qualified(target)
                                        + ")")) {
            rs.next();
            boolean empty = rs.getBoolean(1);
            ddl.commit();
            return empty;
        } catch (SQLException e) {
            throw database.failure("reading " + settings.qualified(target), e);
        }
    }

    /**
     * Creates or evolves the target in a transaction of its own, with {@code key} as its key when
     * the target is new; returns its columns.
     */
    private LinkedHashMap<String, String> ensure(
            String target, StagingTable table, List<String> key) throws IOException {
        try {
            Connection c = ddl();
            try {
                LinkedHashMap<String, String> columns =
                        targets.ensure(c, target, table.schema(), key);
                c.commit();
                return columns;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw database.failure("creating or evolving " + settings.qualified(target), e);
        }
    }

    /** The connection of the short transactions that read and create targets. */
    private Connection ddl() throws SQLException, IOException {
        if (ddl == null) {
            ddl = database.connect();
            ddl.setAutoCommit(false);
            try (Statement st = ddl.createStatement()) {
                // DDL waiting on a prepared transaction would wait for ever: fail instead
                st.execute("SET lock_timeout = '60s'");
            }
            ddl.commit();
        }
        return ddl;
    }

    private boolean sameTypes(LinkedHashMap<String, String> columns, StagingTable table) {
        for (int i = 0; i < table.columns().size(); i++) {
            if (!table.types().get(i).equals(columns.get(table.columns().get(i)))) {
                return false;
            }
        }
        return dialect.idType().equals(columns.get(SqlNames.ID))
                && dialect.syncedAtType().equals(columns.get(SqlNames.SYNCED_AT));
    }

    @Override
    public void write(StagingTable table, io.skippr.core.record.Row row, long seq)
            throws IOException {
        Target t = direct.get(table.name());
        if (t == null) {
            staging.write(table, row, seq);
            return;
        }
        t.encoder.row(t.buffer, row, seq);
        if (t.buffer.size() >= PgCopyLoader.CHUNK) {
            send(t);
        }
    }

    private void send(Target t) throws IOException {
        try {
            if (!t.qualified.equals(activeTable)) {
                endActive();
                active =
                        copy.copyIn(
                                "COPY "
                                        + t.qualified
                                        + " ("
                                        + t.columns
                                        + ") FROM STDIN (FORMAT binary)");
                activeTable = t.qualified;
                active.writeToCopy(PgCopy.HEADER, 0, PgCopy.HEADER.length);
            }
            active.writeToCopy(t.buffer.bytes(), 0, t.buffer.size());
            t.buffer.reset();
        } catch (SQLException e) {
            abandon();
            throw database.failure("loading " + t.qualified, e);
        }
    }

    @Override
    public void pause() throws IOException {
        try {
            endActive();
        } catch (SQLException e) {
            abandon();
            throw database.failure("ending a COPY into a staging table", e);
        }
    }

    private void endActive() throws SQLException {
        if (active != null) {
            CopyIn ending = active;
            active = null;
            activeTable = null;
            ending.writeToCopy(PgCopy.TRAILER, 0, PgCopy.TRAILER.length);
            ending.endCopy();
        }
    }

    @Override
    public String preparedAs(StagingTable table) {
        return direct.containsKey(table.name())
                        || staged.containsKey(table.name())
                        || owed.containsKey(table.name())
                ? gid
                : null;
    }

    @Override
    public void finish() throws IOException {
        finish(null);
    }

    /**
     * Sends the rest, moves a continuous checkpoint's staged rows into their targets, inserts
     * {@code end} (the subtask's marker row) where rows went into targets, then prepares the
     * transaction that holds them: its rows, marker and positions commit together. In a continuous
     * run the next checkpoint's rows go into a new transaction.
     */
    @Override
    public void finish(MarkerTable.Marker end) throws IOException {
        staging.finish();
        for (Target t : direct.values()) {
            if (t.buffer.size() > 0) {
                send(t);
            }
        }
        try {
            endActive();
            if (!direct.isEmpty() || !staged.isEmpty() || !owed.isEmpty()) {
                for (Staged s : staged.values()) {
                    move(s);
                }
                try (Statement st = data.createStatement()) {
                    for (StagingTable o : owed.values()) {
                        st.execute(
                                dialect.commentOnTable(
                                        dialect.qualified(o.schemaName(), o.name()),
                                        SqlStagingWriter.owedComment(o.comment(), o.schema())));
                    }
                }
                if (end != null) {
                    new MarkerTable(settings).insert(data, end);
                }
                try (Statement st = data.createStatement()) {
                    st.execute("PREPARE TRANSACTION " + dialect.literal(gid));
                }
                prepared = true;
            }
        } catch (SQLException e) {
            abandon();
            throw database.failure("preparing transaction " + gid, e);
        }
        if (continuous) {
            direct.clear();
            staged.clear();
            owed.clear();
            checkpoint++;
            gid = null;
            prepared = false;
        }
    }

    /**
     * Inserts the rows of staging table {@code s} into its target, cast to the target's column
     * types, and drops it, in the transaction to be prepared.
     */
    private void move(Staged s) throws SQLException {
        StagingTable table = s.table();
        String from = dialect.qualified(table.schemaName(), table.name());
        try (Statement st = data.createStatement()) {
            st.execute(targets.appendFrom(s.target(), s.columns(), table.schema(), from));
            st.execute(dialect.dropTable(from));
        }
    }

    private void abandon() {
        if (active != null && active.isActive()) {
            try {
                active.cancelCopy();
            } catch (SQLException ignored) {
                // the COPY failed already; cancelling only frees the connection
            }
        }
        active = null;
        activeTable = null;
    }

    /** Rolls back an unprepared transaction (a failed writer); a prepared one waits for commit. */
    @Override
    public void close() throws IOException {
        abandon();
        try {
            staging.close();
        } finally {
            closeQuietly(data); // closing rolls back what is not prepared
            closeQuietly(ddl);
        }
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // nothing left to save on this connection
            }
        }
    }
}
