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
 * @param lastKey the primary key (PostgreSQL text, key order) of the last emitted row: reading
 *     resumes after it; null before the first row and for tables without a key
 * @param rowsEmitted rows emitted so far: tables without a key resume by skipping them
 */
public record PostgresSplit(
        String splitId,
        TableInfo table,
        Long keyFrom,
        Long keyTo,
        CursorWindow window,
        List<String> lastKey,
        long rowsEmitted)
        implements SourceSplit {

    public PostgresSplit {
        Objects.requireNonNull(splitId, "splitId");
        Objects.requireNonNull(table, "table");
        lastKey = lastKey == null ? null : List.copyOf(lastKey);
    }

    /** A split not yet read. */
    static PostgresSplit fresh(
            String splitId, TableInfo table, Long keyFrom, Long keyTo, CursorWindow window) {
        return new PostgresSplit(splitId, table, keyFrom, keyTo, window, null, 0);
    }

    /** This split with reading progress. */
    PostgresSplit withProgress(List<String> key, long rows) {
        return new PostgresSplit(splitId, table, keyFrom, keyTo, window, key, rows);
    }

    PostgresSplit withId(String id) {
        return new PostgresSplit(id, table, keyFrom, keyTo, window, lastKey, rowsEmitted);
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
                + (lastKey != null ? " after " + lastKey : "")
                + " rows "
                + rowsEmitted
                + "]";
    }
}
