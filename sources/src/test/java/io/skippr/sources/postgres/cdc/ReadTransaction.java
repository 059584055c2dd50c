package io.skippr.sources.postgres.cdc;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A {@link Transaction} with its changes read into a list, for tests of small transactions. */
record ReadTransaction(
        long xid, long commitLsn, long endLsn, Instant commitTime, List<Change> changes) {

    /** Reads {@code tx}'s changes and closes it; null for null. */
    static ReadTransaction of(Transaction tx) throws IOException {
        if (tx == null) {
            return null;
        }
        try (tx) {
            List<Change> changes = new ArrayList<>();
            tx.changes().forEach(changes::add);
            return new ReadTransaction(
                    tx.xid(), tx.commitLsn(), tx.endLsn(), tx.commitTime(), changes);
        }
    }
}
