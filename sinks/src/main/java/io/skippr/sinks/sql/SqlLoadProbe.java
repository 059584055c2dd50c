package io.skippr.sinks.sql;

import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.LoadProbe;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Asks a SQL destination which rows it refuses by doing what the commit will do, in a transaction
 * that is always rolled back: the batch goes into a staging table and is applied to the target by
 * {@link CommitTransaction#apply} (the same INSERT or MERGE, with the same casts). A batch the
 * target refuses is split in halves until the refused rows stand alone; with savepoints
 * (PostgreSQL) the halves it takes stay applied while the rest is tried, so rows of one batch that
 * collide with each other (a unique index) are found too. Only targets with rules Skippr did not
 * create are probed ({@link SqlDialect#hasOwnRules}, looked at again every {@link #RECHECK_NANOS}),
 * so a table Skippr made costs nothing.
 *
 * <p>What the probe cannot see, the commit still refuses and the run fails with the destination's
 * error: rows of different batches, or of different writer subtasks, that collide only with each
 * other, and rows whose fate changes between probe and commit (another writer, a rule added in
 * between). A wait for a lock held by a commit in flight makes the probe give up on the batch
 * ({@link SqlDatabase#beginProbe}).
 */
final class SqlLoadProbe implements LoadProbe {
    private static final long serialVersionUID = 1L;
    static final long RECHECK_NANOS = 30_000_000_000L;

    private final SqlSinkSettings settings;

    SqlLoadProbe(SqlSinkSettings settings) {
        this.settings = settings;
    }

    @Override
    public Session open(int subtask) throws IOException {
        return new ProbeSession(settings, subtask);
    }

    private static final class ProbeSession implements Session {
        private static final org.slf4j.Logger LOG =
                org.slf4j.LoggerFactory.getLogger(SqlLoadProbe.class);

        private final SqlSinkSettings settings;
        private final SqlDatabase database;
        private final SqlDialect dialect;
        private final CommitTransaction apply;
        private final int subtask;
        private final Connection connection;
        private final Map<String, long[]> ruled = new HashMap<>();
        private long seq;

        ProbeSession(SqlSinkSettings settings, int subtask) throws IOException {
            this.settings = settings;
            this.database = settings.database();
            this.dialect = settings.dialect();
            this.apply = new CommitTransaction(settings);
            this.subtask = subtask;
            this.connection = database.connect();
        }

        /** Whether {@code table} has rules of its own, as looked at in the last 30 s. */
        private boolean ruled(String table) throws SQLException {
            long now = System.nanoTime();
            long[] seen = ruled.get(table);
            if (seen == null || now - seen[0] > RECHECK_NANOS) {
                boolean rules = dialect.hasOwnRules(connection, settings.schema(), table);
                seen = new long[] {now, rules ? 1 : 0};
                ruled.put(table, seen);
            }
            return seen[1] == 1;
        }

        /** Per stream, its target table's name: {@link #probes} asks for every row. */
        private final Map<String, String> tables = new HashMap<>();

        @Override
        public boolean probes(StreamSchema schema) throws IOException {
            String table = tables.computeIfAbsent(schema.stream(), s -> dialect.names().table(s));
            try {
                return ruled(table);
            } catch (SQLException e) {
                throw database.failure("reading the rules of " + settings.qualified(table), e);
            }
        }

        @Override
        public Map<Integer, String> refused(StreamSchema schema, List<Row> rows)
                throws IOException {
            String table = dialect.names().table(schema.stream());
            Map<Integer, String> refused = new TreeMap<>();
            try {
                connection.setAutoCommit(false);
                try {
                    database.beginProbe(connection);
                    isolate(schema, table, rows, 0, rows.size(), refused);
                } finally {
                    connection.rollback();
                    connection.setAutoCommit(true);
                }
            } catch (Unjudged e) {
                LOG.debug("Probe of {} rows of {} gave up: {}", rows.size(), table, e.getMessage());
                return Map.of();
            } catch (SQLException e) {
                throw database.failure("probing " + settings.qualified(table), e);
            }
            return refused;
        }

        /** Finds the rows of {@code rows[from, to)} the target refuses. */
        private void isolate(
                StreamSchema schema,
                String table,
                List<Row> rows,
                int from,
                int to,
                Map<Integer, String> refused)
                throws SQLException, Unjudged {
            String reason = attempt(schema, table, rows, from, to);
            if (reason == null) {
                return;
            }
            if (to - from == 1) {
                refused.put(from, reason);
                return;
            }
            int middle = (from + to) >>> 1;
            isolate(schema, table, rows, from, middle, refused);
            isolate(schema, table, rows, middle, to, refused);
        }

        /**
         * Applies {@code rows[from, to)}; null if the target took them (kept, with savepoints), or
         * its reason for refusing one of them (undone).
         */
        private String attempt(StreamSchema schema, String table, List<Row> rows, int from, int to)
                throws SQLException, Unjudged {
            boolean savepoints = dialect.savepoints();
            Savepoint savepoint = savepoints ? connection.setSavepoint() : null;
            SqlCommittable probe = null;
            try {
                probe = committable(schema, stage(schema, rows, from, to), to - from);
                if (!database.staging().load(connection, settings, probe)) {
                    throw new IOException(
                            database.staging().describe(settings, probe.staging()) + " is gone");
                }
                apply.apply(connection, table, List.of(probe));
                if (savepoints) {
                    connection.releaseSavepoint(savepoint);
                } else {
                    connection.rollback();
                }
                return null;
            } catch (SQLException e) {
                if (savepoints) {
                    connection.rollback(savepoint);
                } else {
                    connection.rollback();
                }
                if (!database.refusesRows(e)) {
                    throw new Unjudged(e);
                }
                return database.refusal(e);
            } catch (IOException | RuntimeException e) {
                connection.rollback();
                throw new Unjudged(e);
            } finally {
                if (probe != null) {
                    database.staging().committed(settings, List.of(probe));
                }
            }
        }

        private String stage(StreamSchema schema, List<Row> rows, int from, int to)
                throws IOException {
            long n = seq++;
            String name =
                    SqlNames.staging(
                            settings.pipeline(),
                            settings.sink() + "\u0000probe",
                            settings.run(),
                            subtask,
                            0,
                            n);
            StagingTable table =
                    StagingTable.of(
                            dialect, settings.schema(), name, schema, "{\"skippr\":\"probe\"}");
            try (StagingLoader loader = database.loader(connection)) {
                loader.create(table);
                for (int i = from; i < to; i++) {
                    loader.write(table, rows.get(i), i);
                }
                loader.finish();
            }
            return name;
        }

        private SqlCommittable committable(StreamSchema schema, String staging, long rows) {
            return new SqlCommittable(
                    SqlCommittable.Kind.ROWS,
                    settings.run(),
                    subtask,
                    1,
                    0,
                    0,
                    0,
                    schema.stream(),
                    schema,
                    staging,
                    rows,
                    null,
                    null);
        }

        @Override
        public void close() throws IOException {
            try {
                connection.close();
            } catch (SQLException e) {
                // the probe only ever rolled back: nothing to keep
            }
        }
    }

    /** The probe cannot tell (a lock wait, a failure that is not about the rows). */
    private static final class Unjudged extends Exception {
        private static final long serialVersionUID = 1L;

        Unjudged(Exception cause) {
            super(cause.getMessage(), cause);
        }
    }
}
