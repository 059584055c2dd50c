package io.skippr.cli.verify;

/**
 * One load checked by {@code verify --since}: what it recorded against what the source and the
 * destination hold in its cursor range now.
 *
 * @param sourceRows the source's rows in the load's cursor range
 * @param destinationRows the destination's rows in it
 * @param destinationChecksum the sum of those rows' id hashes, as the load's checksum is summed
 * @param problem why the load does not match; null when it does
 */
record LoadCheck(
        Loads.Load load,
        long sourceRows,
        long destinationRows,
        long destinationChecksum,
        String problem) {

    /**
     * The check of {@code load}: where the source still holds exactly as many rows in the load's
     * cursor range as it loaded (nothing there changed since), the destination must hold exactly
     * the rows the load committed, by count and checksum.
     */
    static LoadCheck of(Loads.Load load, long sourceRows, long destinationRows, long checksum) {
        long rows = load.load().rows();
        String problem = null;
        if (sourceRows == rows && (destinationRows != rows || checksum != load.load().checksum())) {
            problem =
                    "the destination holds "
                            + destinationRows
                            + " rows in its cursor range, checksum "
                            + String.format("%016x", checksum)
                            + "; the load committed "
                            + rows
                            + " rows, checksum "
                            + load.checksum()
                            + ", and the source holds "
                            + sourceRows;
        }
        return new LoadCheck(load, sourceRows, destinationRows, checksum, problem);
    }

    boolean matches() {
        return problem == null;
    }

    /** Whether the source holds another number of rows in the range than the load loaded. */
    boolean sourceChanged() {
        return sourceRows != load.load().rows();
    }
}
