package io.skippr.sinks.postgres;

import io.skippr.core.record.Row;
import io.skippr.sinks.sql.SqlDialect;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

/**
 * Fills staging tables with binary COPY. Rows are encoded into a buffer per staging table; a full
 * buffer (1 MiB) is streamed into an open {@code COPY … FROM STDIN (FORMAT binary)} of its table,
 * which stays open while the same table keeps receiving rows, so one stream's rows flow in one COPY
 * per checkpoint while the server works in parallel. Interleaved streams switch COPY per buffer.
 * Every statement runs in auto-commit: a staging table nobody commits is dropped later by the
 * writer that finds it unheld.
 */
final class PgCopyLoader implements StagingLoader {
    static final int CHUNK = 1 << 20;

    private final PostgresDatabase database;
    private final SqlDialect dialect;
    private final Connection connection;
    private final CopyManager copy;
    private final Map<String, Pending> pending = new LinkedHashMap<>();
    private CopyIn active;
    private String activeTable;

    PgCopyLoader(PostgresDatabase database, Connection connection) throws IOException {
        this.database = database;
        this.dialect = database.dialect();
        this.connection = connection;
        try {
            this.copy = connection.unwrap(PGConnection.class).getCopyAPI();
        } catch (SQLException e) {
            throw database.failure("starting COPY", e);
        }
    }

    private static final class Pending {
        final StagingTable table;
        final PgCopy encoder;
        final CopyBuffer buffer = new CopyBuffer(64 * 1024);

        Pending(StagingTable table) {
            this.table = table;
            this.encoder = new PgCopy(table.schema());
        }
    }

    @Override
    public void create(StagingTable table) throws IOException {
        String qualified = dialect.qualified(table.schemaName(), table.name());
        List<String> columns = new ArrayList<>(table.columns());
        List<String> types = new ArrayList<>(table.types());
        columns.addAll(List.of(SqlNames.ID, SqlNames.SYNCED_AT, SqlNames.DELETE_ROW, SqlNames.SEQ));
        types.addAll(List.of(dialect.idType(), dialect.syncedAtType(), "boolean", "bigint"));
        try {
            endActive();
            try (Statement st = connection.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + qualified);
                st.execute(dialect.createTable(qualified, columns, types, List.of()));
                st.execute(dialect.commentOnTable(qualified, table.comment()));
            }
        } catch (SQLException e) {
            throw database.failure("creating staging table " + qualified, e);
        }
        pending.put(table.name(), new Pending(table));
    }

    @Override
    public void write(StagingTable table, Row row, long seq) throws IOException {
        Pending p = pending.get(table.name());
        p.encoder.row(p.buffer, row, seq);
        if (p.buffer.size() >= CHUNK) {
            send(p);
        }
    }

    private void send(Pending p) throws IOException {
        try {
            if (!p.table.name().equals(activeTable)) {
                endActive();
                String columns =
                        dialect.quoteAll(p.table.columns())
                                + (p.table.columns().isEmpty() ? "" : ", ")
                                + dialect.quoteAll(
                                        List.of(
                                                SqlNames.ID,
                                                SqlNames.SYNCED_AT,
                                                SqlNames.DELETE_ROW,
                                                SqlNames.SEQ));
                active =
                        copy.copyIn(
                                "COPY "
                                        + dialect.qualified(p.table.schemaName(), p.table.name())
                                        + " ("
                                        + columns
                                        + ") FROM STDIN (FORMAT binary)");
                activeTable = p.table.name();
                active.writeToCopy(PgCopy.HEADER, 0, PgCopy.HEADER.length);
            }
            active.writeToCopy(p.buffer.bytes(), 0, p.buffer.size());
            p.buffer.reset();
        } catch (SQLException e) {
            abandon();
            throw database.failure("loading staging table " + p.table.name(), e);
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
    public void finish() throws IOException {
        for (Pending p : pending.values()) {
            if (p.buffer.size() > 0) {
                send(p);
            }
        }
        try {
            endActive();
        } catch (SQLException e) {
            abandon();
            throw database.failure("finishing COPY into a staging table", e);
        }
        pending.clear();
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

    @Override
    public void close() {
        abandon();
    }
}
