package io.skippr.cli.verify;

import java.util.List;

/**
 * What verifying one stream found.
 *
 * @param note why the stream could not be compared ("not verifiable yet: ..."), or a fact about the
 *     destination the counts stand on ("destination table ... does not exist"); null when none
 * @param verified false when the stream was not compared at all
 * @param loads the loads {@code verify --since} checked, oldest first; empty without {@code
 *     --since}
 * @param append the stream is loaded in append mode, so the destination also holds older versions
 *     of its keys and the row counts need not be equal
 * @param notYetSynced the source's keys whose row is newer than the position the pipeline committed
 *     and that the destination lacks or holds an older version of (for change data capture: keys
 *     changed after the committed LSN whose rows differ): not synced yet, not lost; null when
 *     unknown (see {@link #unknownSync})
 * @param rowsBehind of {@code notYetSynced}, the keys the destination holds no row of, less those
 *     the source holds no row of (a change-data-capture stream's deletes since): by how many rows
 *     the destination's count is behind the source's
 */
record StreamReport(
        String stream,
        long sourceRows,
        long destinationRows,
        Kind missing,
        Kind extra,
        Kind duplicated,
        Kind different,
        String note,
        boolean verified,
        List<LoadCheck> loads,
        boolean append,
        Kind notYetSynced,
        long rowsBehind) {

    StreamReport(
            String stream,
            long sourceRows,
            long destinationRows,
            Kind missing,
            Kind extra,
            Kind duplicated,
            Kind different,
            String note,
            boolean verified) {
        this(
                stream,
                sourceRows,
                destinationRows,
                missing,
                extra,
                duplicated,
                different,
                note,
                verified,
                List.of(),
                false,
                Kind.NONE,
                0);
    }

    /** This report with the checks of the loads it covers. */
    StreamReport withLoads(List<LoadCheck> checks) {
        return with(List.copyOf(checks), append, notYetSynced, rowsBehind);
    }

    /** This report of a stream loaded in append mode ({@code append}) or not. */
    StreamReport inAppendMode(boolean append) {
        return with(loads, append, notYetSynced, rowsBehind);
    }

    /**
     * This report with the keys not synced yet, the destination's count {@code rowsBehind} behind.
     */
    StreamReport withNotYetSynced(Kind keys, long rowsBehind) {
        return with(loads, append, keys, rowsBehind);
    }

    /**
     * This report of a change-data-capture stream whose changes after the committed LSN could not
     * be read (the slot refused, a TRUNCATE since, no committed LSN, {@code --since}): what is not
     * synced yet is not known.
     */
    StreamReport unknownSync() {
        return verified ? with(loads, append, null, 0) : this;
    }

    /** How many keys are not synced yet; 0 when unknown. */
    long notYetSyncedCount() {
        return notYetSynced == null ? 0 : notYetSynced.count();
    }

    private StreamReport with(
            List<LoadCheck> loads, boolean append, Kind notYetSynced, long rowsBehind) {
        return new StreamReport(
                stream,
                sourceRows,
                destinationRows,
                missing,
                extra,
                duplicated,
                different,
                note,
                verified,
                loads,
                append,
                notYetSynced,
                rowsBehind);
    }

    /** The keys of one kind: how many, and the first of them. */
    record Kind(long count, List<Key> first) {
        static final Kind NONE = new Kind(0, List.of());

        static Kind of(Tally tally) {
            return new Kind(tally.count(), tally.first());
        }
    }

    static StreamReport notVerifiable(String stream, String why) {
        return new StreamReport(
                stream,
                -1,
                -1,
                Kind.NONE,
                Kind.NONE,
                Kind.NONE,
                Kind.NONE,
                "not verifiable yet: " + why,
                false);
    }

    /**
     * Compared, and source and destination hold the same rows, but for the source's rows not synced
     * yet.
     */
    boolean matches() {
        return verified
                && (append || sourceRows - rowsBehind == destinationRows)
                && missing.count() == 0
                && extra.count() == 0
                && duplicated.count() == 0
                && different.count() == 0
                && loads.stream().allMatch(LoadCheck::matches);
    }
}
