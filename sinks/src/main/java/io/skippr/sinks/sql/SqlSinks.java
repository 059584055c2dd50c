package io.skippr.sinks.sql;

import io.skippr.core.record.Deadletter;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.RowCheck;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.bounded.BoundedSinkTopology;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.function.SerializableSupplier;

/** Prepares a SQL sink for a run and adds it to a job graph. */
public final class SqlSinks {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SqlSinks.class);

    private SqlSinks() {}

    /**
     * Settings for a new run into {@code schema}, after checking the role may do what the sink
     * needs (so a missing privilege stops the run before Flink starts, naming the GRANT), creating
     * the schema and marker table where missing, and, for a bounded run, dropping every staging
     * table an earlier run of this pipeline and sink left (no checkpoint holds any in batch mode).
     */
    public static SqlSinkSettings prepare(
            SqlDatabase database,
            String pipeline,
            String sink,
            String schema,
            boolean bounded,
            WriteMode mode) {
        return prepare(database, pipeline, sink, schema, bounded, mode, 0);
    }

    /**
     * As {@link #prepare(SqlDatabase, String, String, String, boolean, WriteMode)}, for the
     * deadletter sink of data run {@code deadletterRun} (0: a data sink). A deadletter sink commits
     * no positions, so its continuous commits never make a bounded run's refusal: the data sink
     * guards the run.
     */
    public static SqlSinkSettings prepare(
            SqlDatabase database,
            String pipeline,
            String sink,
            String schema,
            boolean bounded,
            WriteMode mode,
            long deadletterRun) {
        if (mode == WriteMode.REPLACE && !bounded) {
            throw io.skippr.config.ConfigException.of(
                    "skippr.yml",
                    "pipelines."
                            + pipeline
                            + ".write_mode: replace loads a whole run into a new table and swaps"
                            + " it in, so it needs a bounded run: sync with --once, or use"
                            + " write_mode append or merge for a continuous sync");
        }
        try (Connection c = database.connect()) {
            database.checkAccess(c, schema);
            SqlSinkSettings draft =
                    new SqlSinkSettings(pipeline, sink, schema, 0, bounded, mode, database);
            MarkerTable markers = new MarkerTable(draft);
            // where DDL cannot run in a transaction (Synapse), each statement commits alone
            c.setAutoCommit(!database.dialect().transactionalDdl());
            markers.ensure(c);
            if (!c.getAutoCommit()) {
                c.commit();
            }
            c.setAutoCommit(true);
            database.finishLeftPrepared(c, draft);
            // rows an earlier continuous run committed as owed: moved before any staging is
            // dropped, and kept if their target is locked
            database.settleOwed(c, draft, List.of());
            if (bounded
                    && deadletterRun == 0
                    && (mode == WriteMode.APPEND || mode == WriteMode.DEFAULT)) {
                long after = markers.rowsAfterPositions(c); // before any staging is dropped
                if (after > 0) {
                    throw io.skippr.core.spi.OnceAfterContinuous.refusal(
                            pipeline,
                            "data_sinks." + sink + " (" + database.describe() + ")",
                            after,
                            true);
                }
            }
            SqlSinkSettings settings =
                    new SqlSinkSettings(
                            pipeline, sink, schema, markers.nextRun(c), bounded, mode, database);
            if (bounded) {
                Set<String> owed = SqlStagingWriter.owedTables(settings, c).keySet();
                for (String staging : SqlStagingWriter.stagingTables(settings, c).keySet()) {
                    if (!owed.contains(staging)) {
                        database.staging().discard(c, settings, staging);
                    }
                }
            }
            return settings;
        } catch (SQLException e) {
            throw unchecked(database.failure("preparing schema " + schema, e));
        } catch (IOException e) {
            throw unchecked(e);
        }
    }

    private static SqlSinkException unchecked(IOException e) {
        return new SqlSinkException(e.getMessage(), e);
    }

    /** Per stream, where the next bounded run starts; empty in replace mode (full reloads). */
    public static Map<String, String> committedPositions(SqlSinkSettings settings) {
        if (settings.mode() == WriteMode.REPLACE) {
            return Map.of();
        }
        try (Connection c = settings.database().connect()) {
            return new MarkerTable(settings).positions(c);
        } catch (SQLException e) {
            throw unchecked(settings.database().failure("reading committed positions", e));
        } catch (IOException e) {
            throw unchecked(e);
        }
    }

    /**
     * Per stream, where the next bounded run of {@code pipeline} into {@code sink} starts, read
     * without {@link #prepare}: nothing is created, so a schema or marker table that does not exist
     * yet reads as no positions. Empty in replace mode (full reloads).
     */
    public static Map<String, String> committedPositions(
            SqlDatabase database, String pipeline, String sink, String schema, WriteMode mode) {
        if (mode == WriteMode.REPLACE) {
            return Map.of();
        }
        SqlSinkSettings settings =
                new SqlSinkSettings(pipeline, sink, schema, 0, true, mode, database);
        try (Connection c = database.connect()) {
            if (database.dialect().columns(c, schema, SqlNames.MARKER_TABLE) == null) {
                return Map.of();
            }
            return new MarkerTable(settings).positions(c);
        } catch (SQLException e) {
            throw unchecked(database.failure("reading committed positions", e));
        } catch (IOException e) {
            throw unchecked(e);
        }
    }

    /** {@link #committedPositions(SqlDatabase, String, String, String, WriteMode)} of a context. */
    public static Map<String, String> committedPositions(
            SqlDatabase database, io.skippr.core.spi.SinkContext context, String schema) {
        return committedPositions(
                database,
                context.pipeline(),
                context.entry(),
                schema,
                WriteMode.of(context.writeMode()));
    }

    /**
     * Clears the positions pipeline {@code context} committed into {@code schema} of {@code
     * database} ({@link io.skippr.core.spi.SinkFactory#forgetPositions}): its marker rows keep
     * their runs and counts, with no position. Returns what was cleared, in words.
     */
    public static String forgetPositions(
            SqlDatabase database, io.skippr.core.spi.SinkContext context, String schema) {
        SqlSinkSettings settings =
                new SqlSinkSettings(
                        context.pipeline(),
                        context.entry(),
                        schema,
                        0,
                        true,
                        WriteMode.of(context.writeMode()),
                        database);
        try (Connection c = database.connect()) {
            if (database.dialect().columns(c, schema, SqlNames.MARKER_TABLE) == null) {
                return "no commit records";
            }
            int rows = new MarkerTable(settings).forgetPositions(c);
            if (!c.getAutoCommit()) {
                c.commit();
            }
            return rows
                    + (rows == 1 ? " commit record" : " commit records")
                    + " in "
                    + settings.qualified(SqlNames.MARKER_TABLE);
        } catch (SQLException e) {
            throw unchecked(database.failure("clearing committed positions", e));
        } catch (IOException e) {
            throw unchecked(e);
        }
    }

    /**
     * Rows that continuous runs committed after the last bounded run; 0 in merge and replace mode,
     * where loading them again does not add them twice. The default mode counts every stream's
     * rows, though a stream with a key merges them: the marker table counts rows, not streams.
     */
    public static long rowsAfterPositions(SqlSinkSettings settings) {
        if (settings.mode() == WriteMode.MERGE || settings.mode() == WriteMode.REPLACE) {
            return 0;
        }
        try (Connection c = settings.database().connect()) {
            return new MarkerTable(settings).rowsAfterPositions(c);
        } catch (SQLException e) {
            throw unchecked(settings.database().failure("reading committed positions", e));
        } catch (IOException e) {
            throw unchecked(e);
        }
    }

    /**
     * The {@link SkipprSink} of {@code context} into {@code schema} of {@code database}, {@link
     * #prepare prepared} for its run: what each SQL sink factory's {@code create} does.
     */
    public static SkipprSink sink(
            SqlDatabase database,
            String schema,
            RowCheck check,
            io.skippr.core.spi.SinkContext context) {
        return sink(
                prepare(
                        database,
                        context.pipeline(),
                        context.entry(),
                        schema,
                        context.bounded(),
                        WriteMode.of(context.writeMode()),
                        context.deadletterRun()),
                check,
                context);
    }

    /**
     * The {@link SkipprSink} of {@code context}: a data sink, or a deadletter sink whose bounded
     * commits replace the deadletters of earlier attempts of the same data run, and whose
     * continuous run first removes a failed bounded attempt's ({@link
     * #removeFailedAttemptsDeadletters}).
     */
    public static SkipprSink sink(
            SqlSinkSettings settings, RowCheck check, io.skippr.core.spi.SinkContext context) {
        SqlSinkSettings sink =
                settings.deadletters(context.deadletterRun())
                        .withSoftDeletes(context.softDeletes());
        if (sink.deadletterRun() > 0) {
            removeFailedAttemptsDeadletters(sink);
        }
        return sink(sink, check, context.failPoint());
    }

    /**
     * Before a deadletter sink's run, deletes the rows of its data run that a failed attempt left:
     * the data sink has not committed that data run (it is still the next), so this run reads the
     * same records again. A bounded run deletes them whatever they are (so a rerun whose records no
     * longer fail keeps none of them; its commit deletes them again with its own). A continuous run
     * deletes them only when the sink's last run was a bounded one that committed deadletters: that
     * commit replaced every row of its data run with its own. Once a continuous run commits, its
     * last run is continuous, so rows a restored checkpoint may still need are never deleted.
     */
    static void removeFailedAttemptsDeadletters(SqlSinkSettings settings) {
        SqlDialect dialect = settings.dialect();
        String table = dialect.names().table(Deadletter.STREAM);
        String dataRun = dialect.names().column(Deadletter.DATA_RUN);
        try (Connection c = settings.database().connect()) {
            var columns = dialect.columns(c, settings.schema(), table);
            if (columns == null
                    || !columns.containsKey(dataRun)
                    || !settings.bounded()
                            && !new MarkerTable(settings).lastRunBoundedWithRows(c)) {
                return;
            }
            int deleted =
                    CommitTransaction.deleteDataRun(c, settings, table, settings.deadletterRun());
            LOG.info(
                    "Removed {} deadletters of data run {} that a failed --once attempt of"
                            + " pipeline {} left",
                    deleted,
                    settings.deadletterRun(),
                    settings.pipeline());
        } catch (SQLException e) {
            throw unchecked(settings.database().failure("removing a failed run's deadletters", e));
        } catch (IOException e) {
            throw unchecked(e);
        }
    }

    /** A {@link SkipprSink} writing through {@link SqlSink}. */
    public static SkipprSink sink(SqlSinkSettings settings, RowCheck check, FailPoint failPoint) {
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                return SqlSinks.committedPositions(settings);
            }

            @Override
            public SerializableSupplier<Map<String, String>> committedPositionsReader() {
                return () -> SqlSinks.committedPositions(settings);
            }

            @Override
            public long rowsAfterPositions() {
                return SqlSinks.rowsAfterPositions(settings);
            }

            @Override
            public boolean appends(io.skippr.core.record.StreamSchema stream) {
                return settings.mode().appends(stream);
            }

            @Override
            public RowCheck loadCheck() {
                return check;
            }

            /** None in replace mode: its rows go into a new table Skippr makes. */
            @Override
            public io.skippr.core.spi.LoadProbe loadProbe() {
                return settings.mode() == WriteMode.REPLACE ? null : new SqlLoadProbe(settings);
            }

            /** One above the highest run in the marker table: this run's own number. */
            @Override
            public long nextRun() {
                return settings.run();
            }

            @Override
            public DataStream<Long> addTo(
                    DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter) {
                return BoundedSinkTopology.addTo(
                        records,
                        new SqlSink(settings, failPoint),
                        uid,
                        commitAfter,
                        settings.bounded());
            }

            @Override
            public void afterRun() {
                try (Connection c = settings.database().connect()) {
                    settings.database().finishLeftPrepared(c, settings);
                } catch (SQLException | IOException | RuntimeException e) {
                    LOG.warn(
                            "Could not finish the prepared transactions of pipeline {} left in {};"
                                    + " its next run finishes them: {}",
                            settings.pipeline(),
                            settings.database().describe(),
                            e.getMessage());
                }
            }
        };
    }
}
