package io.skippr.sources.postgres.cdc;

import java.time.Instant;
import java.util.List;

/**
 * A committed transaction's changes, in the order it made them.
 *
 * @param commitLsn the LSN of its commit record
 * @param endLsn the first position after its commit: what {@link ChangeStream#confirm} takes once
 *     the transaction is safe in the destination, and where a restart resumes after it
 */
public record Transaction(
        long xid, long commitLsn, long endLsn, Instant commitTime, List<Change> changes) {}
