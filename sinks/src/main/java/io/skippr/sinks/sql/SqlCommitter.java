package io.skippr.sinks.sql;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.connector.sink2.Committer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a SQL sink's committables through {@link CommitTransaction}, idempotently: a commit whose
 * marker row exists is signalled as already committed.
 *
 * <ul>
 *   <li>{@link Scope#CHECKPOINT} (continuous runs): one transaction per (run, checkpoint, subtask),
 *       when Flink reports the checkpoint complete.
 *   <li>{@link Scope#NONE} (bounded runs, per subtask): commits nothing, so the committables flow
 *       on to the global committer.
 *   <li>{@link Scope#RUN} (bounded runs, the global committer with parallelism 1): one transaction
 *       for the whole run, once every subtask's committables arrived.
 * </ul>
 *
 * <p>A deadlock, serialization failure or lost connection is retried; anything else fails the job
 * with a message naming what is missing.
 */
public final class SqlCommitter implements Committer<SqlCommittable> {
    /** How much one transaction commits. */
    public enum Scope {
        CHECKPOINT,
        NONE,
        RUN
    }

    private static final Logger LOG = LoggerFactory.getLogger(SqlCommitter.class);

    private final SqlSinkSettings settings;
    private final Scope scope;
    private final CommitTransaction transaction;
    private Connection connection;

    public SqlCommitter(SqlSinkSettings settings, Scope scope) {
        this(settings, scope, io.skippr.core.spi.FailPoint.NONE);
    }

    /** With {@code failPoint} fired between the steps of PostgreSQL's prepared path. */
    public SqlCommitter(
            SqlSinkSettings settings, Scope scope, io.skippr.core.spi.FailPoint failPoint) {
        this.settings = settings;
        this.scope = scope;
        this.transaction = new CommitTransaction(settings, failPoint);
    }

    @Override
    public void commit(Collection<CommitRequest<SqlCommittable>> requests)
            throws IOException, InterruptedException {
        if (scope == Scope.NONE || requests.isEmpty()) {
            return;
        }
        Map<List<Long>, List<CommitRequest<SqlCommittable>>> groups = new TreeMap<>(KEYS);
        for (CommitRequest<SqlCommittable> request : requests) {
            SqlCommittable c = request.getCommittable();
            List<Long> key =
                    scope == Scope.RUN
                            ? List.of(c.run())
                            : List.of(c.run(), c.checkpoint(), (long) c.subtask());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(request);
        }
        for (Map.Entry<List<Long>, List<CommitRequest<SqlCommittable>>> group : groups.entrySet()) {
            commit(group.getKey(), group.getValue());
        }
        if (scope == Scope.RUN) {
            // A bounded run commits once. Flink 2.1's global committer operator never calls
            // close(), so release the connection (and DuckDB's file lock) now.
            closeConnection();
        }
    }

    private static final Comparator<List<Long>> KEYS =
            (a, b) -> {
                for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
                    int cmp = Long.compare(a.get(i), b.get(i));
                    if (cmp != 0) {
                        return cmp;
                    }
                }
                return Integer.compare(a.size(), b.size());
            };

    private void commit(List<Long> key, List<CommitRequest<SqlCommittable>> requests)
            throws IOException {
        List<SqlCommittable> committables =
                requests.stream().map(CommitRequest::getCommittable).toList();
        try {
            Connection own = connection();
            Connection on = settings.database().committing(own, settings, committables);
            boolean done;
            try {
                done = transaction.commit(on, committables);
            } finally {
                settings.database().committed(on, own, settings);
            }
            if (!done) {
                requests.forEach(CommitRequest::signalAlreadyCommitted);
            }
            // owed rows whose target was locked when their commit or a start tried to move them
            settings.database().settleOwed(connection(), settings, List.of());
        } catch (SQLException e) {
            closeConnection();
            if (settings.database().retriable(e)) {
                LOG.warn(
                        "{} failed and is retried: {} (SQL state {}, code {})",
                        describe(key),
                        e.getMessage(),
                        e.getSQLState(),
                        e.getErrorCode());
                requests.forEach(CommitRequest::retryLater);
                return;
            }
            throw settings.database().failure(describe(key), e);
        }
    }

    private String describe(List<Long> key) {
        return scope == Scope.RUN
                ? "committing bounded run " + key.get(0) + " of pipeline " + settings.pipeline()
                : "committing run "
                        + key.get(0)
                        + ", checkpoint "
                        + key.get(1)
                        + ", subtask "
                        + key.get(2)
                        + " of pipeline "
                        + settings.pipeline();
    }

    private Connection connection() throws IOException {
        if (connection == null) {
            connection = settings.database().connect();
        }
        return connection;
    }

    private void closeConnection() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the transaction failed already; a new connection is opened for the retry
            }
            connection = null;
        }
    }

    @Override
    public void close() {
        closeConnection();
    }
}
