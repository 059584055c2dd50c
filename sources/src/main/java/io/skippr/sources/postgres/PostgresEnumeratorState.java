package io.skippr.sources.postgres;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The enumerator's checkpoint.
 *
 * @param discovered true once discovery planned the snapshot: a restore then does not plan again
 * @param tables the tables read
 * @param upper per table with a cursor column, the highest cursor value (PostgreSQL text) that
 *     splits were made for; a null value when no row had one yet
 * @param pending splits not yet assigned to a reader
 * @param nextSplitNumber the number the next split's id gets
 * @param late per stream, earlier reads (continuous mode) whose snapshots saw transactions in
 *     progress ({@link ReadEntry} lines): the next poll of the table reads those transactions' rows
 * @param outstanding the ids of splits handed out or pending and not finished: a table is polled
 *     again only when none of its splits is
 */
public record PostgresEnumeratorState(
        boolean discovered,
        List<TableInfo> tables,
        Map<String, String> upper,
        List<PostgresSplit> pending,
        long nextSplitNumber,
        Map<String, List<String>> late,
        List<String> outstanding) {

    public PostgresEnumeratorState {
        tables = List.copyOf(tables);
        upper = Collections.unmodifiableMap(new LinkedHashMap<>(upper)); // null values allowed
        pending = List.copyOf(pending);
        late = Map.copyOf(late);
        outstanding = List.copyOf(outstanding);
    }

    static PostgresEnumeratorState initial() {
        return new PostgresEnumeratorState(
                false, List.of(), Map.of(), List.of(), 0, Map.of(), List.of());
    }
}
