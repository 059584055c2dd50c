package io.skippr.cli.verify;

import io.skippr.cli.UsageException;
import io.skippr.sinks.sql.LoadsTable;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The loads a SQL data sink recorded in {@code _skippr_loads} ({@link LoadsTable}), one per stream
 * and load: a {@code --once} run is one load (its subtasks' rows added up), a continuous run one
 * per checkpoint.
 */
final class Loads {
    private Loads() {}

    /**
     * One stream's part of one load.
     *
     * @param checkpoint 0 for a {@code --once} run's load
     * @param committedAt when it committed, UTC, to the second
     * @param load its rows, checksum and cursor range, over all subtasks
     */
    record Load(long run, long checkpoint, String mode, String committedAt, LoadsTable.Load load) {
        /** The load's id, as {@code history} prints it and {@code --since} takes it. */
        String id() {
            return checkpoint == 0 ? Long.toString(run) : run + "." + checkpoint;
        }

        /** Whether this load committed after load {@code since} ({@link #parseId}). */
        boolean after(long[] since) {
            return run > since[0] || (run == since[0] && checkpoint > since[1]);
        }

        String stream() {
            return load.stream();
        }

        /** The checksum as 16 hex digits. */
        String checksum() {
            return String.format("%016x", load.checksum());
        }
    }

    /** A load id: {@code RUN} or {@code RUN.CHECKPOINT}, as {@code {run, checkpoint}}. */
    static long[] parseId(String id) {
        String[] parts = id.split("\\.", -1);
        try {
            if (parts.length == 1) {
                return new long[] {Long.parseLong(parts[0]), Long.MAX_VALUE};
            }
            if (parts.length == 2) {
                return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
            }
        } catch (NumberFormatException e) {
            // told below
        }
        throw new UsageException(
                "--since "
                        + id
                        + " is not a load: give a load as skipprd history prints it, RUN (a --once"
                        + " run) or RUN.CHECKPOINT (a continuous run's checkpoint), or 0 for every"
                        + " load");
    }

    /**
     * The loads of {@code pipeline} into {@code sink} in {@code table} (quoted, qualified), newest
     * first; those of {@code stream} only unless it is null.
     */
    static List<Load> read(
            Reader reader,
            Canonical.Dialect dialect,
            String table,
            String pipeline,
            String sink,
            String stream)
            throws SQLException {
        String at = Canonical.name(dialect, "committed_at");
        String text =
                switch (dialect) {
                    case POSTGRES, REDSHIFT ->
                            "to_char(" + at + " AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')";
                    case SNOWFLAKE ->
                            "to_char(convert_timezone('UTC', " + at + "), 'YYYY-MM-DD HH24:MI:SS')";
                    case BIGQUERY -> "FORMAT_TIMESTAMP('%Y-%m-%d %H:%M:%S', " + at + ", 'UTC')";
                    default -> "strftime(" + at + " AT TIME ZONE 'UTC', '%Y-%m-%d %H:%M:%S')";
                };
        List<String> params = new ArrayList<>();
        java.util.function.Function<String, String> q = n -> Canonical.name(dialect, n);
        String where =
                " WHERE "
                        + q.apply("pipeline")
                        + " = "
                        + reader.bind(pipeline, params)
                        + " AND "
                        + q.apply("sink")
                        + " = "
                        + reader.bind(sink, params);
        if (stream != null) {
            where += " AND " + q.apply("stream") + " = " + reader.bind(stream, params);
        }
        Map<String, Load> loads = new LinkedHashMap<>();
        String columns =
                String.join(
                        ", ",
                        q.apply("stream"),
                        q.apply("run"),
                        q.apply("checkpoint"),
                        q.apply("mode"),
                        text,
                        q.apply("rows"),
                        q.apply("checksum"),
                        q.apply("position_type"),
                        q.apply("position_from"),
                        q.apply("position_to"));
        for (String[] row :
                reader.query(
                        "SELECT "
                                + columns
                                + " FROM "
                                + table
                                + where
                                + " ORDER BY "
                                + String.join(
                                        ", ",
                                        q.apply("run"),
                                        q.apply("checkpoint"),
                                        q.apply("stream"),
                                        q.apply("subtask")),
                        params)) {
            String mode = row[3];
            long run = Long.parseLong(row[1]);
            long checkpoint = LoadsTable.ONCE.equals(mode) ? 0 : Long.parseLong(row[2]);
            LoadsTable.Load part =
                    new LoadsTable.Load(
                            row[0],
                            Long.parseLong(row[5]),
                            new BigInteger(row[6]).longValue(),
                            row[8],
                            row[9],
                            row[7]);
            loads.merge(
                    run + "/" + checkpoint + "/" + row[0],
                    new Load(run, checkpoint, mode, row[4], part),
                    (a, b) ->
                            new Load(
                                    run,
                                    checkpoint,
                                    mode,
                                    a.committedAt().compareTo(b.committedAt()) >= 0
                                            ? a.committedAt()
                                            : b.committedAt(),
                                    a.load().plus(b.load())));
        }
        List<Load> newestFirst = new ArrayList<>(loads.values());
        newestFirst.sort(
                Comparator.comparingLong(Load::run)
                        .thenComparingLong(Load::checkpoint)
                        .reversed()
                        .thenComparing(Load::stream));
        return newestFirst;
    }
}
