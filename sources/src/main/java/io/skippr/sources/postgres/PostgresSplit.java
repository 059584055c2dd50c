package io.skippr.sources.postgres;

import java.util.List;
import java.util.Objects;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A part of one table: a range of its integer key (or the whole table), within a cursor window,
 * with the reading progress a checkpoint holds.
 *
 * @param splitId unique within the job
 * @param table the table and its columns
 * @param keyFrom inclusive lower bound of the integer key; null for none
 * @param keyTo exclusive upper bound of the integer key; null for none
 * @param window the cursor values to read; null without a cursor column
 * @param lastKey the resume key of the last emitted row ({@link RowOrder}: its primary key as
 *     PostgreSQL text, or its address): reading resumes after it; null before the first row
 * @param rowsEmitted rows emitted so far (a split of an earlier version of a table without a key,
 *     which has no last key, resumes by skipping them)
 * @param late for a split that reads late commits (rows of transactions an earlier read could not
 *     see, by {@code xmin}) instead of a window: the earlier reads; null for any other split
 * @param unseen what its reads could not see; null before it started: its position names it all
 * @param report for a finished split in its reader's state, the report of it the enumerator has not
 *     acknowledged yet ({@link io.skippr.sources.UnacknowledgedReports}); null for a split to read
 */
public record PostgresSplit(
        String splitId,
        TableInfo table,
        Long keyFrom,
        Long keyTo,
        CursorWindow window,
        List<String> lastKey,
        long rowsEmitted,
        List<ReadEntry> late,
        Unseen unseen,
        SplitRead report)
        implements SourceSplit {

    public PostgresSplit {
        Objects.requireNonNull(splitId, "splitId");
        Objects.requireNonNull(table, "table");
        lastKey = lastKey == null ? null : List.copyOf(lastKey);
        late = late == null ? null : List.copyOf(late);
    }

    /** A split to read. */
    public PostgresSplit(
            String splitId,
            TableInfo table,
            Long keyFrom,
            Long keyTo,
            CursorWindow window,
            List<String> lastKey,
            long rowsEmitted,
            List<ReadEntry> late,
            List<Long> xids) {
        this(
                splitId,
                table,
                keyFrom,
                keyTo,
                window,
                lastKey,
                rowsEmitted,
                late,
                xids == null ? null : Unseen.of(xids),
                null);
    }

    /** A split not yet read. */
    static PostgresSplit fresh(
            String splitId, TableInfo table, Long keyFrom, Long keyTo, CursorWindow window) {
        return new PostgresSplit(splitId, table, keyFrom, keyTo, window, null, 0, null, null);
    }

    /** A split reading the rows of transactions that {@code reads} could not see. */
    static PostgresSplit lateCommits(String splitId, TableInfo table, List<ReadEntry> reads) {
        return new PostgresSplit(splitId, table, null, null, null, null, 0, reads, null);
    }

    /** This split with reading progress, and what its reads could not see. */
    PostgresSplit withProgress(List<String> key, long rows, Unseen inProgress) {
        return new PostgresSplit(
                splitId, table, keyFrom, keyTo, window, key, rows, late, inProgress, null);
    }

    PostgresSplit withId(String id) {
        return copy(id, null);
    }

    /** This split finished, having sent {@code position} after its rows (null for none). */
    PostgresSplit finished(String position) {
        return copy(splitId, new SplitRead(splitId, table.stream(), position));
    }

    private PostgresSplit copy(String id, SplitRead withReport) {
        return new PostgresSplit(
                id, table, keyFrom, keyTo, window, lastKey, rowsEmitted, late, unseen, withReport);
    }

    /** Whether this is a finished split whose report is kept ({@link #report}). */
    boolean isReport() {
        return report != null;
    }

    @Override
    public String toString() {
        return "PostgresSplit["
                + splitId
                + " "
                + table.qualifiedName()
                + (keyFrom != null || keyTo != null ? " key [" + keyFrom + ", " + keyTo + ")" : "")
                + (window != null
                        ? " cursor ("
                                + window.after()
                                + ", "
                                + window.upTo()
                                + "]"
                                + (window.includeNull() ? " and NULL" : "")
                        : "")
                + (late != null ? " late commits of " + late.size() + " reads" : "")
                + (lastKey != null ? " after " + lastKey : "")
                + " rows "
                + rowsEmitted
                + (report != null ? " finished" : "")
                + "]";
    }
}
