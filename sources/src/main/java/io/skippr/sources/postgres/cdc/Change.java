package io.skippr.sources.postgres.cdc;

import java.time.Instant;
import java.util.List;

/**
 * One row change (or a table's truncation) read from the replication stream.
 *
 * @param lsn the WAL position of the change itself
 * @param commitLsn the LSN of its transaction's commit record
 * @param xid its transaction's id
 * @param newValues the row after an insert or update, one per column; empty for delete and truncate
 * @param oldValues for update and delete, the old key ({@code oldIsKey}, values of the key columns
 *     only, the others NULL) or the whole old row (replica identity FULL); empty when PostgreSQL
 *     sent none (an update that kept the key under DEFAULT) and for insert and truncate
 */
public record Change(
        Op op,
        String schema,
        String table,
        List<ChangeColumn> columns,
        List<ColumnValue> newValues,
        List<ColumnValue> oldValues,
        boolean oldIsKey,
        long lsn,
        long commitLsn,
        long xid,
        Instant commitTime) {

    public enum Op {
        INSERT,
        UPDATE,
        DELETE,
        TRUNCATE
    }
}
