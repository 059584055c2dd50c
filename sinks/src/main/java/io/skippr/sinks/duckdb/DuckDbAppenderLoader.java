package io.skippr.sinks.duckdb;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.StagingLoader;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Fills staging tables with DuckDB's appender: one appender per open staging table, rows appended
 * column by column into DuckDB's vectors (no SQL per row), flushed by DuckDB in chunks and at
 * {@link #finish}. Runs in auto-commit: each flush commits into its staging table; a staging table
 * nobody commits is dropped later by the writer that finds it unheld.
 */
final class DuckDbAppenderLoader implements StagingLoader {
    private final DuckDbDatabase database;
    private final DuckDbDialect dialect;
    private final Connection connection;
    private final DuckDBConnection duck;
    private final Map<String, Open> open = new LinkedHashMap<>();

    DuckDbAppenderLoader(DuckDbDatabase database, Connection connection) throws IOException {
        this.database = database;
        this.dialect = database.dialect();
        this.connection = connection;
        try {
            this.duck = connection.unwrap(DuckDBConnection.class);
        } catch (SQLException e) {
            throw database.failure("opening an appender", e);
        }
    }

    private record Open(StagingTable table, DataType[] types, DuckDBAppender appender) {}

    @Override
    public void create(StagingTable table) throws IOException {
        String qualified = dialect.qualified(table.schemaName(), table.name());
        List<String> columns = new ArrayList<>(table.columns());
        List<String> types = new ArrayList<>(table.types());
        columns.addAll(List.of(SqlNames.ID, SqlNames.SYNCED_AT, SqlNames.DELETE_ROW, SqlNames.SEQ));
        types.addAll(List.of(dialect.idType(), dialect.syncedAtType(), "BOOLEAN", "BIGINT"));
        try {
            Open old = open.remove(table.name());
            if (old != null) {
                old.appender().close();
            }
            try (Statement st = connection.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + qualified);
                st.execute(dialect.createTable(qualified, columns, types, List.of()));
                st.execute(dialect.commentOnTable(qualified, table.comment()));
            }
            DataType[] kinds =
                    table.schema().columns().stream().map(Column::type).toArray(DataType[]::new);
            open.put(
                    table.name(),
                    new Open(table, kinds, duck.createAppender(table.schemaName(), table.name())));
        } catch (SQLException e) {
            throw database.failure("creating staging table " + qualified, e);
        }
    }

    @Override
    public void write(StagingTable table, Row row, long seq) throws IOException {
        Open o = open.get(table.name());
        DuckDBAppender a = o.appender();
        try {
            a.beginRow();
            appendTargetColumns(a, o.types(), row);
            a.append(row.op() == Operation.DELETE);
            a.append(seq);
            a.endRow();
        } catch (SQLException | RuntimeException e) {
            throw cannotAppend(database, row, "staging table " + table.name(), e);
        }
    }

    /** The row's values in the stream's column order, then its id and its sync time. */
    static void appendTargetColumns(DuckDBAppender a, DataType[] types, Row row)
            throws SQLException {
        Object[] values = row.values();
        for (int i = 0; i < types.length; i++) {
            append(a, types[i], i < values.length ? values[i] : null);
        }
        if (row.id() == null) {
            a.appendNull();
        } else {
            a.append(row.id());
        }
        a.appendEpochMicros(row.syncedAtMicros());
    }

    static IOException cannotAppend(DuckDbDatabase database, Row row, String to, Exception e) {
        return new IOException(
                "cannot append a row of stream "
                        + row.stream()
                        + " at "
                        + row.position()
                        + " to "
                        + to
                        + " on "
                        + database.describe()
                        + ": "
                        + database.redact(String.valueOf(e.getMessage())),
                e);
    }

    /** One value as its column's DuckDB type (see {@link DuckDbDialect#columnType}). */
    static void append(DuckDBAppender a, DataType type, Object v) throws SQLException {
        if (v == null) {
            a.appendNull();
            return;
        }
        switch (type.kind()) {
            case BOOLEAN -> a.append((boolean) (Boolean) v);
            case INT16 -> a.append((short) (Short) v);
            case INT32 -> a.append((int) (Integer) v);
            case INT64 -> a.append((long) (Long) v);
            case FLOAT32 -> a.append((float) (Float) v);
            case FLOAT64 -> a.append((double) (Double) v);
            case DECIMAL -> {
                BigDecimal d = (BigDecimal) v;
                if (DuckDbDialect.isDecimal(type.precision(), type.scale())) {
                    a.append(d.setScale(type.scale(), RoundingMode.HALF_UP));
                } else {
                    a.append(d.toPlainString());
                }
            }
            case STRING, JSON -> a.append((String) v);
            case UUID -> a.append((UUID) v);
            case BYTES -> a.append((byte[]) v);
            case DATE -> a.append((LocalDate) v);
            case TIME -> a.append((LocalTime) v);
            case TIMESTAMP -> a.appendEpochMicros(micros((LocalDateTime) v));
            case TIMESTAMP_TZ -> a.appendEpochMicros(micros((Instant) v));
        }
    }

    /** Microseconds since the epoch, truncated; throws ArithmeticException beyond 64 bits. */
    static long micros(LocalDateTime t) {
        return Math.addExact(
                Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), 1_000_000L),
                t.getNano() / 1_000);
    }

    static long micros(Instant t) {
        return Math.addExact(
                Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
    }

    @Override
    public void finish() throws IOException {
        SQLException failure = null;
        String table = null;
        for (Open o : open.values()) {
            try {
                o.appender().close(); // flushes the rest and commits it
            } catch (SQLException e) {
                if (failure == null) {
                    failure = e;
                    table = o.table().name();
                }
            }
        }
        open.clear();
        if (failure != null) {
            throw database.failure("loading staging table " + table, failure);
        }
    }

    @Override
    public void close() {
        for (Open o : open.values()) {
            try {
                o.appender().close();
            } catch (SQLException ignored) {
                // the writer is going away; no checkpoint holds these rows
            }
        }
        open.clear();
    }
}
