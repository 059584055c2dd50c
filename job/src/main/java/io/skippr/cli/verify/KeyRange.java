package io.skippr.cli.verify;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A closed range of integer keys, {@code [low, high]}, and its split into nearly equal parts: the
 * unit of the range checksums. Computed in {@link BigInteger}, so the full range of {@code bigint}
 * splits without overflow.
 */
record KeyRange(long low, long high) {

    KeyRange {
        if (low > high) {
            throw new IllegalArgumentException("empty key range [" + low + ", " + high + "]");
        }
    }

    /** How many keys the range spans. */
    BigInteger width() {
        return BigInteger.valueOf(high).subtract(BigInteger.valueOf(low)).add(BigInteger.ONE);
    }

    /**
     * The range cut into {@code parts} adjacent ranges that together cover it exactly, the first
     * ones one key wider when it does not divide evenly; fewer when it spans fewer keys.
     */
    List<KeyRange> split(int parts) {
        if (parts < 1) {
            throw new IllegalArgumentException("parts must be positive: " + parts);
        }
        BigInteger width = width();
        BigInteger n = width.min(BigInteger.valueOf(parts));
        BigInteger[] each = width.divideAndRemainder(n);
        List<KeyRange> ranges = new ArrayList<>();
        BigInteger start = BigInteger.valueOf(low);
        for (int i = 0; i < n.intValueExact(); i++) {
            BigInteger size =
                    BigInteger.valueOf(i).compareTo(each[1]) < 0
                            ? each[0].add(BigInteger.ONE)
                            : each[0];
            BigInteger end = start.add(size).subtract(BigInteger.ONE);
            ranges.add(new KeyRange(start.longValueExact(), end.longValueExact()));
            start = end.add(BigInteger.ONE);
        }
        return ranges;
    }

    @Override
    public String toString() {
        return "[" + low + ", " + high + "]";
    }
}
