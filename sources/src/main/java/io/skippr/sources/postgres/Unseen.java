package io.skippr.sources.postgres;

import java.util.List;

/**
 * What the reads of a split could not see, as its checkpointed state keeps it: their rows are late
 * commits, read by a later read ({@link ReadEntry} names them in the split's position).
 *
 * @param xids the transactions in progress in the snapshot the split's reading started in (and,
 *     after a restore, in each later one), as the 32-bit ids rows carry in {@code xmin}
 * @param band for a window split, the {@link XidBand} its reads leave open; for a late-commit
 *     split, its snapshot's xmax and the transactions running before it ({@link
 *     Snapshot#lateBand}); null for none
 * @param parts of those rows, the ones its reads after restores read where they had committed (rows
 *     above the key it resumed after): not late commits ({@link ReadEntry.Part#above})
 */
record Unseen(List<Long> xids, XidBand band, List<ReadEntry.Part> parts) {
    Unseen {
        xids = List.copyOf(xids);
        parts = parts == null ? List.of() : List.copyOf(parts);
    }

    /** The transactions {@code xids} in progress, nothing else. */
    static Unseen of(List<Long> xids) {
        return new Unseen(xids, null, List.of());
    }
}
