package io.skippr.sinks.duckdb;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import io.skippr.sinks.sql.TargetTables;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBAppender;

/**
 * DuckDB's fast path for bounded append runs, off unless switched on ({@link
 * DuckDbDatabase#loadsInRunTransaction}): each row is appended once, straight into its target
 * table, inside the run's one open transaction ({@link RunTransaction}), which the run's commit
 * finishes with its marker rows. Rows are not staged and then copied, and a large transaction's
 * rows go to the file once, without the write-ahead log.
 *
 * <p>A target is created or evolved in that transaction when its first segment opens, so a run that
 * fails leaves no table behind either. A segment goes through a staging table (in the same
 * transaction, moved by the commit as usual) when its target's columns are not exactly the
 * stream's, in order and type (an older, wider or extra column), when the target has rules of its
 * own (the load probe then tries its rows beside this transaction), or when it needs a column
 * change while another writer appends to it.
 */
final class DuckDbRunLoader implements StagingLoader {
    private final DuckDbDatabase database;
    private final SqlSinkSettings settings;
    private final TargetTables targets;
    private final int subtask;
    private final RunTransaction run;
    private final StagingLoader staging;
    private final Map<String, Direct> direct = new HashMap<>();

    private record Direct(DataType[] types, DuckDBAppender appender, String target) {}

    DuckDbRunLoader(DuckDbDatabase database, SqlSinkSettings settings, int subtask)
            throws IOException {
        this.database = database;
        this.settings = settings;
        this.targets = new TargetTables(settings);
        this.subtask = subtask;
        this.run = RunTransaction.join(database, settings, subtask);
        this.staging = new DuckDbAppenderLoader(database, run.connection());
    }

    @Override
    public void create(StagingTable table) throws IOException {
        String target = database.dialect().names().table(table.schema().stream());
        try {
            DuckDBAppender appender;
            synchronized (run) {
                if (!takesRowsDirectly(target, table)) {
                    staging.create(table);
                    return;
                }
                run.appendingTo(target, settings.qualified(target));
                appender = run.connection().createAppender(settings.schema(), target);
            }
            DataType[] types =
                    table.schema().columns().stream().map(Column::type).toArray(DataType[]::new);
            direct.put(table.name(), new Direct(types, appender, settings.qualified(target)));
        } catch (SQLException e) {
            throw database.failure("loading " + settings.qualified(target), e);
        }
    }

    /** Creates or evolves {@code target} where it may; whether it has exactly the rows' columns. */
    private boolean takesRowsDirectly(String target, StagingTable table) throws SQLException {
        LinkedHashMap<String, String> existing =
                database.dialect().columns(run.connection(), settings.schema(), target);
        if (existing != null
                && (database.dialect().hasOwnRules(run.connection(), settings.schema(), target)
                        || (!run.alterable(target)
                                && !targets.changes(target, existing, table.schema()).isEmpty()))) {
            return false;
        }
        LinkedHashMap<String, String> columns =
                targets.ensure(run.connection(), target, table.schema(), List.of());
        return new ArrayList<>(columns.entrySet())
                .equals(new ArrayList<>(targets.wanted(table.schema()).entrySet()));
    }

    @Override
    public void write(StagingTable table, Row row, long seq) throws IOException {
        Direct d = direct.get(table.name());
        if (d == null) {
            staging.write(table, row, seq);
            return;
        }
        DuckDBAppender a = d.appender();
        try {
            a.beginRow();
            DuckDbAppenderLoader.appendTargetColumns(a, d.types(), row);
            a.endRow();
        } catch (SQLException | RuntimeException e) {
            throw DuckDbAppenderLoader.cannotAppend(database, row, d.target(), e);
        }
    }

    /** A segment appended to its target is committed with the run's transaction. */
    @Override
    public String preparedAs(StagingTable table) {
        return direct.containsKey(table.name()) ? "run " + settings.run() : null;
    }

    @Override
    public boolean heldInRunTransaction() {
        return true;
    }

    /** Hands the appended rows to the transaction: the run's commit commits them. */
    @Override
    public void finish() throws IOException {
        SQLException failure = null;
        for (Direct d : direct.values()) {
            try {
                d.appender().close();
            } catch (SQLException e) {
                failure = failure == null ? e : failure;
            }
        }
        direct.clear();
        if (failure != null) {
            throw database.failure("appending to the run's transaction", failure);
        }
        staging.finish();
        run.finished(subtask);
    }

    @Override
    public void close() throws IOException {
        for (Direct d : direct.values()) {
            try {
                d.appender().close();
            } catch (SQLException ignored) {
                // the transaction is discarded below
            }
        }
        direct.clear();
        try {
            staging.close();
        } finally {
            run.left(subtask);
        }
    }
}
