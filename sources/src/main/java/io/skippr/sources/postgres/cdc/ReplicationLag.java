package io.skippr.sources.postgres.cdc;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * The gauge {@code skippr.replicationLagSeconds} of a change stream: how long ago the last
 * transaction whose changes the stream emitted was committed on the server, or 0 once the stream
 * has read everything the server sent (caught up, or idle with nothing pending). It grows while the
 * stream is behind, by a second each second when nothing more is emitted, and drops as it catches
 * up. -1 before the stream has read anything.
 *
 * <p>The commit time is the server's clock (pgoutput's Begin message), the "now" this process's: a
 * clock skew between them shifts the value, which never goes below 0.
 */
public final class ReplicationLag {
    private static final long UNKNOWN = -1;

    private final LongSupplier clockMillis;
    private volatile long emittedCommitMillis = UNKNOWN;
    private volatile boolean caughtUp;

    public ReplicationLag() {
        this(System::currentTimeMillis);
    }

    /** A lag measured against {@code clockMillis}, milliseconds since the epoch. */
    public ReplicationLag(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    /** Every change of a transaction committed at {@code commitTime} was emitted. */
    public void emitted(Instant commitTime) {
        emittedCommitMillis = commitTime.toEpochMilli();
        caughtUp = false;
    }

    /** The stream waited for the server and got nothing: everything committed was read. */
    public void caughtUp() {
        caughtUp = true;
    }

    /** The gauge's value, in whole seconds. */
    public long seconds() {
        if (caughtUp) {
            return 0;
        }
        long commit = emittedCommitMillis;
        if (commit == UNKNOWN) {
            return UNKNOWN;
        }
        return Math.max(0, (clockMillis.getAsLong() - commit) / 1000);
    }
}
