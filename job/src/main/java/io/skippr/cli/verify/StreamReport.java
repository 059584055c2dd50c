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
        boolean append) {

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
                false);
    }

    /** This report with the checks of the loads it covers. */
    StreamReport withLoads(List<LoadCheck> checks) {
        return with(List.copyOf(checks), append);
    }

    /** This report of a stream loaded in append mode ({@code append}) or not. */
    StreamReport inAppendMode(boolean append) {
        return with(loads, append);
    }

    private StreamReport with(List<LoadCheck> loads, boolean append) {
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
                append);
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

    /** Compared, and source and destination hold the same rows. */
    boolean matches() {
        return verified
                && (append || sourceRows == destinationRows)
                && missing.count() == 0
                && extra.count() == 0
                && duplicated.count() == 0
                && different.count() == 0
                && loads.stream().allMatch(LoadCheck::matches);
    }
}
