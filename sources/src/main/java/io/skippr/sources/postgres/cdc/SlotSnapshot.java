package io.skippr.sources.postgres.cdc;

import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.sql.Connection;

/**
 * A newly created logical slot and the snapshot PostgreSQL exported with it: a transaction that
 * runs {@code SET TRANSACTION SNAPSHOT 'snapshotName'} (REPEATABLE READ, as its first statement)
 * sees exactly the rows committed before {@code consistentPoint}, where the slot's stream starts.
 * The snapshot lives as long as this object's replication connection: close it once every snapshot
 * reader has imported it.
 */
public final class SlotSnapshot implements AutoCloseable {
    private final Connection replication;
    private final String slotName;
    private final long consistentPoint;
    private final String snapshotName;

    SlotSnapshot(
            Connection replication, String slotName, long consistentPoint, String snapshotName) {
        this.replication = replication;
        this.slotName = slotName;
        this.consistentPoint = consistentPoint;
        this.snapshotName = snapshotName;
    }

    public String slotName() {
        return slotName;
    }

    public long consistentPoint() {
        return consistentPoint;
    }

    public String snapshotName() {
        return snapshotName;
    }

    /** Ends the exported snapshot; the slot stays. */
    @Override
    public void close() {
        PostgresConnectionConfig.closeQuietly(replication);
    }
}
