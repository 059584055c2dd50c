package io.skippr.sources.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The transaction ids from a read's snapshot's {@code xmax} up: the ids of transactions that had
 * none yet when the snapshot was taken. Such a transaction may have taken its cursor value before
 * (its {@code now()}, a {@code nextval} in an earlier statement) and write after, so its row, at or
 * below the window's top, is a late commit the snapshot's in-progress list cannot name. While a
 * transaction that ran at the snapshot still runs, each late read takes the rows with an {@code
 * xmin} in the band up to its own snapshot's {@code xmax}, and the band moves up to that.
 *
 * @param from the first id of the band, 64-bit (with its epoch)
 * @param running the virtual transaction ids ({@code pg_locks.virtualxid}) of the other sessions of
 *     the database that ran when the band's read took its snapshot and still ran at the last late
 *     read: while one of them runs, the band stays
 */
record XidBand(long from, List<String> running) {
    private static final long MASK = 0xffffffffL;

    XidBand {
        running = List.copyOf(running);
    }

    /** Whether the 32-bit id a row's {@code xmin} holds lies at or above {@link #from}. */
    boolean covers(long xid) {
        return ((xid - (from & MASK)) & MASK) < (1L << 31);
    }

    /** What either band leaves open: a later read of a split after a restore keeps both. */
    static XidBand either(XidBand a, XidBand b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        Set<String> all = new LinkedHashSet<>(a.running);
        all.addAll(b.running);
        return new XidBand(Math.min(a.from, b.from), List.copyOf(all));
    }

    /**
     * What both bands leave open: a later late read's band lies within an earlier one's, so of the
     * entries of one read (in any order) this is the latest's. With a late read's own band (its
     * snapshot's xmax, the transactions running before it was taken), the band a read leaves after
     * it: its transactions that ended before the snapshot wrote what the snapshot saw.
     */
    static XidBand both(XidBand a, XidBand b) {
        if (a == null || b == null) {
            return null;
        }
        List<String> still = new ArrayList<>(a.running);
        still.retainAll(b.running);
        return new XidBand(Math.max(a.from, b.from), still);
    }

    void write(ObjectNode doc) {
        ObjectNode band = doc.putObject("band");
        band.put("from", from);
        running.forEach(band.putArray("running")::add);
    }

    /** The band of a document {@link #write} wrote; null when it has none. */
    static XidBand read(JsonNode doc) {
        JsonNode band = doc.path("band");
        if (!band.isObject()) {
            return null;
        }
        List<String> running = new ArrayList<>();
        band.path("running").forEach(v -> running.add(v.asText()));
        return new XidBand(band.path("from").asLong(), running);
    }
}
