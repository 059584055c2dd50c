package io.skippr.sinks.sql;

import io.skippr.core.record.StreamSchema;

/**
 * What a SQL sink's writer pre-commits: a staging table full of one stream's rows, a schema to
 * apply without rows, or (bounded runs) the end of a subtask's input. Committing it twice is
 * harmless: the commit's marker row says it happened.
 *
 * @param run the sink's run number: one per job start
 * @param subtask the writer subtask that wrote it
 * @param parallelism how many writer subtasks the run has
 * @param epoch the checkpoint the writer restored from, 0 for a fresh start
 * @param batch the writer's pre-commit count since it started in {@code epoch}
 * @param seq the staging table's number within the epoch (-1 when there is none)
 * @param schema the rows' schema (null for {@link Kind#END})
 * @param staging the staging table's name for {@link Kind#ROWS}, the prepared transaction's id for
 *     {@link Kind#PREPARED}, the run for {@link Kind#HELD}, else null
 * @param cursor the highest cursor value in the staged rows, as text, or null; for {@link
 *     Kind#END}, the read positions of the subtask's input ({@link MarkerTable#READ})
 * @param cursorType the cursor column's type kind, or null; {@link MarkerTable#READ} for an end
 *     with read positions
 * @param minCursor the lowest cursor value in the rows, as text, or null
 * @param checksum the sum of the rows' {@link io.skippr.sinks.writer.StreamUnit#idHash}es, which
 *     {@code _skippr_loads} records
 * @param stagedBeforeV3 whether its staging was written before version 3 of the serializer, whose
 *     staging calls the delete flag {@link SqlNames#DELETE_ROW_BEFORE_V3}
 */
public record SqlCommittable(
        Kind kind,
        long run,
        int subtask,
        int parallelism,
        long epoch,
        long batch,
        long seq,
        String stream,
        StreamSchema schema,
        String staging,
        long rows,
        String cursor,
        String cursorType,
        String minCursor,
        long checksum,
        boolean stagedBeforeV3) {

    /** A committable of this version's staging. */
    public SqlCommittable(
            Kind kind,
            long run,
            int subtask,
            int parallelism,
            long epoch,
            long batch,
            long seq,
            String stream,
            StreamSchema schema,
            String staging,
            long rows,
            String cursor,
            String cursorType,
            String minCursor,
            long checksum) {
        this(
                kind,
                run,
                subtask,
                parallelism,
                epoch,
                batch,
                seq,
                stream,
                schema,
                staging,
                rows,
                cursor,
                cursorType,
                minCursor,
                checksum,
                false);
    }

    /** A committable without a lowest cursor value or checksum (no rows, or a test's). */
    public SqlCommittable(
            Kind kind,
            long run,
            int subtask,
            int parallelism,
            long epoch,
            long batch,
            long seq,
            String stream,
            StreamSchema schema,
            String staging,
            long rows,
            String cursor,
            String cursorType) {
        this(
                kind,
                run,
                subtask,
                parallelism,
                epoch,
                batch,
                seq,
                stream,
                schema,
                staging,
                rows,
                cursor,
                cursorType,
                null,
                0);
    }

    /** What a committable holds. */
    public enum Kind {
        ROWS,
        SCHEMA,
        END,
        /** Rows in the target already, inside a prepared transaction the commit commits. */
        PREPARED,
        /**
         * Rows in the target already, inside the bounded run's one open transaction, which the
         * run's commit continues and commits ({@link SqlDatabase#committing}).
         */
        HELD
    }

    /** The staging's column that says a row deletes its key. */
    public String deleteRowColumn() {
        return stagedBeforeV3 ? SqlNames.DELETE_ROW_BEFORE_V3 : SqlNames.DELETE_ROW;
    }

    /**
     * The number of the checkpoint this was pre-committed for, as the writer counts: the restored
     * checkpoint plus the pre-commits since. It never exceeds Flink's checkpoint id and never
     * repeats for commits that can both happen, so {@code (run, checkpoint, subtask)} keys a
     * commit.
     */
    public long checkpoint() {
        return epoch + batch + 1;
    }

    /**
     * The end of a bounded run's subtask.
     *
     * @param readPositions per stream, the read positions the subtask's input held ({@link
     *     io.skippr.core.record.ReadPositions}); empty when its source sends none
     */
    public static SqlCommittable end(
            long run,
            int subtask,
            int parallelism,
            long epoch,
            long batch,
            java.util.Map<String, String> readPositions) {
        return new SqlCommittable(
                Kind.END,
                run,
                subtask,
                parallelism,
                epoch,
                batch,
                -1,
                "",
                null,
                null,
                0,
                readPositions.isEmpty() ? null : MarkerTable.readPositions(readPositions),
                readPositions.isEmpty() ? null : MarkerTable.READ);
    }
}
