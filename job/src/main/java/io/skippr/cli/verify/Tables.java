package io.skippr.cli.verify;

import io.skippr.core.record.DataType;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sources.postgres.ColumnInfo;
import io.skippr.sources.postgres.CommittedCursor;
import io.skippr.sources.postgres.TableInfo;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A source table and the destination table its stream loads, named by the sink's own naming, as the
 * pair of {@link Side}s a {@link StreamCheck} compares.
 */
final class Tables {
    private static final String SOURCE_QUOTE = "\"";

    /** The column a pipeline with {@code soft_deletes} marks deleted keys' rows with. */
    static final String SOFT_DELETED = "_skippr_deleted";

    private final Connection source;
    private final Destination destination;
    private final boolean softDeletes;
    private final Map<String, String> positions;
    private final Map<String, Set<Key>> changed;

    /**
     * @param softDeletes the pipeline's {@code soft_deletes}: the destination's rows marked {@link
     *     #SOFT_DELETED} stand for keys the source deleted, and are left out of the comparison
     * @param positions per stream, the position the data sink committed, read before the
     *     destination's rows: a cursor stream's source rows above it are not synced yet (a change-
     *     data-capture stream's LSNs are read by {@link ChangedKeys}); null when the positions are
     *     not known (a full read each run, a sink that could not say)
     * @param changed per change-data-capture stream, the source keys changed after the committed
     *     LSN ({@link ChangedKeys}): not synced yet; empty for other pipelines
     */
    Tables(
            Connection source,
            Destination destination,
            boolean softDeletes,
            Map<String, String> positions,
            Map<String, Set<Key>> changed) {
        this.source = source;
        this.destination = destination;
        this.softDeletes = softDeletes;
        this.positions = positions;
        this.changed = changed;
    }

    /**
     * The cursor values {@code verify --since} bounds both tables to, both included, as text of the
     * cursor column's type.
     */
    record CursorRange(String from, String to) {}

    StreamReport verify(TableInfo table, WriteMode mode, Consumer<String> progress)
            throws SQLException {
        return verify(table, mode, progress, null);
    }

    /**
     * Compares the stream's tables, both limited to the rows whose cursor value is in {@code range}
     * when it is not null.
     */
    StreamReport verify(
            TableInfo table, WriteMode mode, Consumer<String> progress, CursorRange range)
            throws SQLException {
        String stream = table.stream();
        String problem = unverifiable(table);
        if (problem == null && destination.dialect() == Canonical.Dialect.CLICKHOUSE) {
            problem = unverifiableOnClickHouse(table);
        }
        if (problem != null) {
            return StreamReport.notVerifiable(stream, problem);
        }
        String qualified = destination.table(stream);
        Map<String, String> have = destination.columns(table);
        Canonical.Form form = destination.form();
        List<Canonical.Column> sourceColumns = new ArrayList<>();
        List<Canonical.Column> sinkColumns = new ArrayList<>();
        List<String> absent = new ArrayList<>();
        for (ColumnInfo c : table.columns()) {
            sourceColumns.add(new Canonical.Column(quote(c.name()), c.type()));
            String column = destination.column(c.name());
            sinkColumns.add(new Canonical.Column(destination.quote(column), c.type()));
            if (have != null && !have.containsKey(column)) {
                absent.add(destination.quote(column));
            }
        }
        CommittedCursor synced = range == null ? synced(table, progress) : null;
        String pending = synced == null ? null : synced.pending();
        Side src =
                new Side(
                        Reader.jdbc(source),
                        Canonical.Dialect.POSTGRES,
                        synced == null
                                ? sourceTable(table, range)
                                // the rows the next run reads are named by this alias
                                : sourceTable(table, null) + " AS " + CommittedCursor.ALIAS,
                        sourceKey(table),
                        Canonical.rowHash(Canonical.Dialect.POSTGRES, sourceColumns, form),
                        pending);
        boolean append = mode.of(table.streamSchema()) == WriteMode.APPEND;
        if (have == null) {
            return new StreamCheck(src, null, append, Set.of(), progress)
                    .nothingLoaded(stream, "destination table " + qualified + " does not exist");
        }
        if (!absent.isEmpty()) {
            return StreamReport.notVerifiable(
                    stream,
                    "destination table "
                            + qualified
                            + " has no column "
                            + String.join(", ", absent));
        }
        List<Side.KeyColumn> sinkKey = new ArrayList<>();
        for (String k : table.primaryKey()) {
            String column = destination.column(k);
            String declared = have.get(column);
            if (table.column(k).type().kind() == DataType.Kind.DECIMAL && textual(declared)) {
                return StreamReport.notVerifiable(
                        stream,
                        keyColumn(table, k)
                                + ", which destination table "
                                + qualified
                                + " holds as text ("
                                + declared
                                + "): its order there is not the numbers' order");
            }
            sinkKey.add(
                    new Side.KeyColumn(
                            destination.quote(column),
                            destination.castType(declared),
                            table.column(k).type()));
        }
        Side dst =
                new Side(
                        destination.reader(),
                        destination.dialect(),
                        destinationTable(table, have, range),
                        sinkKey,
                        Canonical.rowHash(destination.dialect(), sinkColumns, form));
        Set<Key> changedKeys = range == null ? changed.get(stream) : null;
        return new StreamCheck(
                        src, dst, append, changedKeys == null ? Set.of() : changedKeys, progress)
                .run(stream, null);
    }

    /** The source table's key columns, as its {@link Side} reads them. */
    static List<Side.KeyColumn> sourceKey(TableInfo table) {
        return table.primaryKey().stream()
                .map(k -> table.column(k))
                .map(c -> new Side.KeyColumn(quote(c.name()), c.castType(), c.type()))
                .toList();
    }

    /**
     * How far the pipeline synced {@code table}'s cursor stream, by the position its data sink
     * committed; null without a cursor column, a known position, or a committed cursor value.
     */
    private CommittedCursor synced(TableInfo table, Consumer<String> progress) throws SQLException {
        if (positions == null || table.cursorColumn() == null) {
            return null;
        }
        CommittedCursor synced = CommittedCursor.of(source, table, positions.get(table.stream()));
        if (synced.top() == null) {
            return null;
        }
        progress.accept(
                table.stream()
                        + ": synced up to "
                        + quote(table.cursorColumn())
                        + " "
                        + synced.top()
                        + " (the committed position); source rows above it, and those of reads"
                        + " it leaves to the next run, are not synced yet");
        return synced;
    }

    /** The source table, or its rows in {@code range} (null: all of them). */
    private static String sourceTable(TableInfo table, CursorRange range) {
        String qualified = quote(table.schema()) + "." + quote(table.table());
        if (range == null) {
            return qualified;
        }
        String cursor = table.cursorColumn();
        return ranged(
                Canonical.Dialect.POSTGRES,
                qualified,
                quote(cursor),
                table.column(cursor).castType(),
                range);
    }

    /** The destination table as queries read it, or its rows in {@code range}. */
    private String destinationTable(
            TableInfo table, Map<String, String> columns, CursorRange range) {
        String read = destination.readTable(table.stream());
        String mark = destination.column(SOFT_DELETED);
        if (softDeletes && columns.containsKey(mark)) {
            read =
                    "(SELECT * FROM "
                            + read
                            + " WHERE NOT COALESCE("
                            + destination.quote(mark)
                            + ", FALSE)) AS "
                            + Canonical.name(destination.dialect(), "_skippr_live");
        }
        if (range == null) {
            return read;
        }
        String cursor = destination.column(table.cursorColumn());
        return ranged(
                destination.dialect(),
                read,
                destination.quote(cursor),
                destination.castType(columns.get(cursor)),
                range);
    }

    /** {@code table}'s rows whose {@code cursor} is in {@code range}, as a FROM item. */
    private static String ranged(
            Canonical.Dialect dialect,
            String table,
            String cursor,
            String castType,
            CursorRange range) {
        return "(SELECT * FROM "
                + table
                + " WHERE "
                + cursor
                + " >= CAST("
                + literal(dialect, range.from())
                + " AS "
                + castType
                + ") AND "
                + cursor
                + " <= CAST("
                + literal(dialect, range.to())
                + " AS "
                + castType
                + ")) AS "
                + Canonical.name(dialect, "_skippr_range");
    }

    /** {@code value} as a string literal of {@code dialect}: GoogleSQL escapes with backslashes. */
    static String literal(Canonical.Dialect dialect, String value) {
        return dialect == Canonical.Dialect.BIGQUERY
                ? "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"
                : literal(value);
    }

    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }

    /** The source's rows in {@code range}. */
    long sourceRows(TableInfo table, CursorRange range) throws SQLException {
        return Long.parseLong(
                Reader.jdbc(source)
                        .query("SELECT count(*) FROM " + sourceTable(table, range), List.of())
                        .get(0)[0]);
    }

    /**
     * The destination's rows in {@code range} and the sum of their id hashes, as a load's checksum
     * is summed ({@link io.skippr.sinks.writer.StreamUnit#idHash}); {0, 0} without the table.
     */
    long[] destinationIds(TableInfo table, CursorRange range) throws SQLException {
        Map<String, String> columns = destination.columns(table);
        if (columns == null) {
            return new long[] {0, 0};
        }
        String[] row =
                destination
                        .reader()
                        .query(
                                "SELECT count(*), "
                                        + Canonical.hashSums(
                                                destination.dialect(),
                                                destination.quote(SqlNames.ID))
                                        + " FROM "
                                        + destinationTable(table, columns, range),
                                List.of())
                        .get(0);
        long rows = Long.parseLong(row[0]);
        return new long[] {rows, rows == 0 ? 0 : new BigInteger(row[1]).longValue()};
    }

    /**
     * ClickHouse 18.16 keeps timestamps in whole seconds and times as text: two source keys can
     * land as one, and bounds would not order alike.
     */
    static String unverifiableOnClickHouse(TableInfo table) {
        for (String k : table.primaryKey()) {
            ColumnInfo c = table.column(k);
            switch (c.type().kind()) {
                case TIME, TIMESTAMP, TIMESTAMP_TZ -> {
                    return keyColumn(table, k)
                            + ", which ClickHouse holds in whole seconds (timestamps) or as text"
                            + " (time); verify cannot tell its keys apart there";
                }
                default -> {}
            }
        }
        return null;
    }

    /**
     * A column type holding text: an unbounded decimal is stored as its text in DuckDB and
     * ClickHouse.
     */
    private static boolean textual(String declared) {
        String t = declared.toUpperCase(Locale.ROOT);
        return t.contains("CHAR") || t.contains("STRING") || t.contains("TEXT");
    }

    /** Why verify cannot compare {@code table}, exactly; null when it can. */
    static String unverifiable(TableInfo table) {
        String name = quote(table.schema()) + "." + quote(table.table());
        if (table.primaryKey().isEmpty()) {
            return "table "
                    + name
                    + " has no primary key; verify compares tables by their primary key";
        }
        for (String k : table.primaryKey()) {
            ColumnInfo c = table.column(k);
            if (!Key.orderable(c.type().kind())) {
                return keyColumn(table, k)
                        + " ("
                        + c.type().kind().name().toLowerCase(Locale.ROOT)
                        + "); verify orders keys of integer, numeric, text, uuid, date, time and"
                        + " timestamp types";
            }
        }
        return null;
    }

    /** {@code the primary key column "k" of table "s"."t" is <its PostgreSQL type>}. */
    private static String keyColumn(TableInfo table, String k) {
        return "the primary key column "
                + quote(k)
                + " of table "
                + quote(table.schema())
                + "."
                + quote(table.table())
                + " is "
                + table.column(k).pgType();
    }

    static String quote(String name) {
        return SOURCE_QUOTE
                + name.replace(SOURCE_QUOTE, SOURCE_QUOTE + SOURCE_QUOTE)
                + SOURCE_QUOTE;
    }
}
