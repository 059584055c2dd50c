package io.skippr.sources.postgres;

import io.skippr.core.postgres.PgErrors;
import java.io.IOException;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans what to read, on the enumerator: discovery and snapshot splits at start, and in continuous
 * mode a split per table whose cursor grew. Splits come without ids; the enumerator numbers them.
 */
final class SplitPlanner {
    private static final org.slf4j.Logger LOG =
            org.slf4j.LoggerFactory.getLogger(SplitPlanner.class);

    /** A bound on splits per table, whatever the estimates say. */
    static final int MAX_SPLITS_PER_TABLE = 4096;

    private SplitPlanner() {}

    /**
     * What discovery found.
     *
     * @param upper per table, the highest cursor value read so far (text); null values when no row
     *     has a cursor value yet, no entries without a cursor column
     */
    record Plan(List<TableInfo> tables, Map<String, String> upper, List<PostgresSplit> splits) {}

    /** Discovers the tables and plans their snapshot, for a first (non-restored) start. */
    static Plan discover(PostgresSourceConfig config, int parallelism) throws IOException {
        PostgresConnectionConfig connection = config.connection();
        try (Connection c = connection.connect()) {
            List<TableInfo> tables = PostgresTables.discover(c, config);
            Map<String, String> upper = new LinkedHashMap<>();
            List<PostgresSplit> splits = new ArrayList<>();
            for (TableInfo table : tables) {
                CursorWindow window = null;
                if (table.cursorColumn() != null) {
                    Frontier read =
                            Frontier.of(c, table, config.startPositions().get(table.stream()));
                    String start = read.top;
                    boolean below = !read.rest.isEmpty() || !read.gaps.isEmpty();
                    if (!read.late.isEmpty() || (config.bounded() && start != null && below)) {
                        List<ReadEntry> late = new ArrayList<>(read.late);
                        if (config.bounded() && start != null) {
                            // the top: where the next run starts, whatever this one finds above
                            late.add(new ReadEntry(start, null, null, List.of()));
                        }
                        splits.add(PostgresSplit.lateCommits("", table, late));
                    }
                    if (below) {
                        LOG.info(
                                "Table {}: the committed positions leave {} part(s) of windows and"
                                        + " {} whole window(s) up to {} unread (a continuous run"
                                        + " stopped while it read); reading them",
                                table.qualifiedName(),
                                read.rest.size(),
                                read.gaps.size(),
                                start);
                    }
                    splits.addAll(read.rest);
                    for (CursorWindow gap : read.gaps) {
                        splits.addAll(
                                snapshotSplits(
                                        c, table, gap, config.targetRowsPerSplit(), parallelism));
                    }
                    String max = maxCursor(c, table, start);
                    if (start == null) {
                        window = new CursorWindow(null, max, true);
                        upper.put(table.stream(), max);
                    } else {
                        window = new CursorWindow(start, max, false);
                        upper.put(table.stream(), max == null ? start : max);
                    }
                    if (window.isEmpty()) {
                        continue;
                    }
                }
                splits.addAll(
                        snapshotSplits(c, table, window, config.targetRowsPerSplit(), parallelism));
            }
            return new Plan(tables, upper, splits);
        } catch (SQLException e) {
            throw new IOException(
                    "Discovering tables of schema "
                            + Sql.show(config.schema())
                            + " on "
                            + connection.describe()
                            + " failed: "
                            + e.getMessage(),
                    PgErrors.cause(e));
        }
    }

    /**
     * The highest cursor value above {@code after} (all values when null) as PostgreSQL text, or
     * null when there is none.
     */
    static String maxCursor(Connection c, TableInfo table, String after) throws SQLException {
        ColumnInfo cursor = table.column(table.cursorColumn());
        String column = Sql.quote(cursor.name());
        String sql = "SELECT max(" + column + ")::text FROM " + table.qualifiedName();
        if (after != null) {
            sql += " WHERE " + column + " > ?::" + cursor.castType();
        }
        try (PreparedStatement s = c.prepareStatement(sql)) {
            if (after != null) {
                s.setString(1, after);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new SQLException(
                    "reading the highest "
                            + Sql.show(cursor.name())
                            + " of "
                            + table.qualifiedName()
                            + (after == null ? "" : " above the start position '" + after + "'")
                            + ": "
                            + e.getMessage(),
                    e.getSQLState(),
                    e);
        }
    }

    /**
     * The snapshot of one table: key ranges of about {@code targetRows} rows (at least {@code
     * parallelism} of them for a table bigger than one split) when the key is a single integer
     * column, else one split. The first range is open below and the last open above, so rows
     * inserted beyond the key range seen at planning are read too.
     */
    static List<PostgresSplit> snapshotSplits(
            Connection c, TableInfo table, CursorWindow window, long targetRows, int parallelism)
            throws SQLException {
        if (!table.hasIntegerKey()) {
            return List.of(PostgresSplit.fresh("", table, null, null, window));
        }
        String key = Sql.quote(table.primaryKey().get(0));
        long min;
        long max;
        try (PreparedStatement s =
                        c.prepareStatement(
                                "SELECT min("
                                        + key
                                        + ")::int8, max("
                                        + key
                                        + ")::int8 FROM "
                                        + table.qualifiedName());
                ResultSet rs = s.executeQuery()) {
            rs.next();
            min = rs.getLong(1);
            if (rs.wasNull()) {
                return List.of(PostgresSplit.fresh("", table, null, null, window));
            }
            max = rs.getLong(2);
        }
        long rows = estimateRows(c, table);
        BigInteger range =
                BigInteger.valueOf(max).subtract(BigInteger.valueOf(min)).add(BigInteger.ONE);
        long count = Math.max(1, (rows + targetRows - 1) / targetRows);
        if (rows > targetRows) {
            count = Math.max(count, parallelism);
        }
        count = Math.min(count, MAX_SPLITS_PER_TABLE);
        if (range.compareTo(BigInteger.valueOf(count)) < 0) {
            count = range.longValueExact();
        }
        if (count <= 1) {
            return List.of(PostgresSplit.fresh("", table, null, null, window));
        }
        // ceil(range / count), so count ranges of this width cover [min, max]
        BigInteger width =
                range.add(BigInteger.valueOf(count - 1)).divide(BigInteger.valueOf(count));
        List<PostgresSplit> splits = new ArrayList<>();
        Long from = null;
        for (long i = 1; i <= count; i++) {
            Long to = null;
            if (i < count) {
                BigInteger bound =
                        BigInteger.valueOf(min).add(width.multiply(BigInteger.valueOf(i)));
                if (bound.compareTo(BigInteger.valueOf(max)) > 0) {
                    break;
                }
                to = bound.longValueExact();
            }
            splits.add(PostgresSplit.fresh("", table, from, to, window));
            from = to;
            if (to == null) {
                break;
            }
        }
        if (from != null) {
            // the loop stopped at a bound beyond max: the last range is open above
            splits.add(PostgresSplit.fresh("", table, from, null, window));
        }
        return splits;
    }

    /**
     * pg_class.reltuples (summed over the partitions of a partitioned table), or an exact count for
     * a table never analyzed.
     */
    static long estimateRows(Connection c, TableInfo table) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement(
                        // a partitioned table has no rows of its own: sum its partitions
                        "SELECT CASE WHEN c.relkind = 'p' THEN (SELECT sum(greatest(p.reltuples,"
                                + " 0))::int8 FROM pg_catalog.pg_inherits i"
                                + " JOIN pg_catalog.pg_class p ON p.oid = i.inhrelid"
                                + " WHERE i.inhparent = c.oid) ELSE c.reltuples::int8 END"
                                + " FROM pg_catalog.pg_class c"
                                + " JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace"
                                + " WHERE n.nspname = ? AND c.relname = ?")) {
            s.setString(1, table.schema());
            s.setString(2, table.table());
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next() && rs.getLong(1) > 0) {
                    return rs.getLong(1);
                }
            }
        }
        try (PreparedStatement s =
                        c.prepareStatement("SELECT count(*) FROM " + table.qualifiedName());
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Continuous mode's poll, on the enumerator's worker thread: it owns the highest cursor value
     * seen per table, and hands out a split per table whose cursor grew past it.
     */
    static final class Poller implements AutoCloseable {
        private final PostgresConnectionConfig connectionConfig;
        private final List<TableInfo> tables;
        private final Map<String, String> upper;
        private Connection connection;

        Poller(
                PostgresConnectionConfig connectionConfig,
                List<TableInfo> tables,
                Map<String, String> upper) {
            this.connectionConfig = connectionConfig;
            this.tables = new ArrayList<>(tables);
            this.upper = new HashMap<>(upper);
        }

        /** The result of one poll: new splits and the highest cursor values they reach. */
        record Result(List<PostgresSplit> splits, Map<String, String> upper) {}

        /**
         * @param idle per table whose earlier splits all finished (others wait), the earlier reads
         *     whose late commits are still to read: those read now are those one of whose
         *     transactions ended since (until then their rows stay invisible), so a session in a
         *     transaction for long costs no scan per poll
         */
        Result poll(Map<String, List<ReadEntry>> idle) throws IOException {
            try {
                if (connection == null || connection.isClosed()) {
                    connection = connectionConfig.connect();
                }
                List<PostgresSplit> splits = new ArrayList<>();
                Map<String, String> grown = new HashMap<>();
                Snapshot now = null;
                for (int i = 0; i < tables.size(); i++) {
                    TableInfo table = tables.get(i);
                    if (!idle.containsKey(table.stream())) {
                        continue;
                    }
                    List<ReadEntry> late = idle.get(table.stream());
                    if (!late.isEmpty()) { // the others wait for a later poll
                        now = now == null ? Snapshot.now(connection) : now;
                        Snapshot at = now;
                        late = late.stream().filter(e -> e.endedSome(at)).toList();
                    }
                    String after = upper.get(table.stream());
                    String max = maxCursor(connection, table, after);
                    if (max == null && late.isEmpty()) {
                        continue;
                    }
                    table = refreshed(table);
                    tables.set(i, table);
                    if (!late.isEmpty()) {
                        splits.add(PostgresSplit.lateCommits("", table, late));
                    }
                    if (max != null) {
                        splits.add(
                                PostgresSplit.fresh(
                                        "",
                                        table,
                                        null,
                                        null,
                                        new CursorWindow(after, max, false)));
                        upper.put(table.stream(), max);
                        grown.put(table.stream(), max);
                    }
                }
                return new Result(splits, grown);
            } catch (SQLException e) {
                close();
                throw new IOException(
                        "Polling for new rows on "
                                + connectionConfig.describe()
                                + " failed: "
                                + e.getMessage(),
                        PgErrors.cause(e));
            }
        }

        /** The table as the catalog has it now: a new column makes a new schema version. */
        private TableInfo refreshed(TableInfo table) throws SQLException {
            TableInfo now =
                    PostgresCatalog.describe(connection, table.schema(), table.table(), null);
            if (now == null) {
                throw new PostgresSourceException(
                        "Table " + table.qualifiedName() + " no longer exists");
            }
            String problem = PostgresCatalog.cursorProblem(now, table.cursorColumn());
            if (problem != null) {
                throw new PostgresSourceException(problem);
            }
            TableInfo withCursor = PostgresCatalog.withCursor(now, table.cursorColumn());
            return withCursor.equals(table) ? table : withCursor;
        }

        @Override
        public void close() {
            PostgresConnectionConfig.closeQuietly(connection);
            connection = null;
        }
    }
}
