package io.skippr.sources.postgres.cdc;

import java.io.IOException;
import java.time.Instant;

/**
 * A committed transaction and its changes, in the order it made them. Its changes are read once
 * (they may be in a spill file); closing it deletes what was not read.
 *
 * @param commitLsn the LSN of its commit record
 * @param endLsn the first position after its commit: what {@link ChangeStream#confirm} takes once
 *     the transaction is safe in the destination, and where a restart resumes after it
 */
public record Transaction(
        long xid, long commitLsn, long endLsn, Instant commitTime, Changes changes)
        implements AutoCloseable {

    @Override
    public void close() throws IOException {
        changes.close();
    }
}
