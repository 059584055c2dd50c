package io.skippr.sinks.sql;

import io.skippr.core.record.Row;
import java.io.IOException;

/**
 * Loads rows into staging tables the way a database loads fastest (PostgreSQL: binary COPY), in
 * batches, never a round trip per row. One per writer subtask, over the writer's connection.
 */
public interface StagingLoader extends AutoCloseable {
    /** Creates {@code table} empty, replacing a table of that name left by an earlier attempt. */
    void create(StagingTable table) throws IOException;

    /** Adds a row to {@code table}; it may be buffered until {@link #finish}. */
    void write(StagingTable table, Row row, long seq) throws IOException;

    /**
     * Ends a load in progress on the writer's connection (PostgreSQL: an open COPY), so the writer
     * may run other statements on it; the next {@link #write} starts another. Buffered rows stay
     * buffered.
     */
    default void pause() throws IOException {}

    /** Sends whatever is buffered: afterwards every written row is durable in its table. */
    void finish() throws IOException;

    /**
     * {@link #finish}, and where rows went into a transaction this loader prepares (see {@link
     * #preparedAs}), records {@code end} (the writer's marker row of a bounded run, null in a
     * continuous run) in that transaction first, so the marker and its positions become visible
     * exactly when those rows do.
     */
    default void finish(MarkerTable.Marker end) throws IOException {
        finish();
    }

    /**
     * Null when {@code table}'s rows go into the staging table; otherwise the id of the prepared
     * transaction that, after {@link #finish}, holds them in the target table already.
     */
    default String preparedAs(StagingTable table) {
        return null;
    }

    /**
     * Whether the rows {@link #preparedAs} names are held in the run's one open transaction, which
     * its commit continues and commits ({@link SqlCommittable.Kind#HELD}, DuckDB), rather than in a
     * prepared transaction of the writer's own ({@link SqlCommittable.Kind#PREPARED}).
     */
    default boolean heldInRunTransaction() {
        return false;
    }

    @Override
    void close() throws IOException;
}
