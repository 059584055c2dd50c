package io.skippr.sources.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One read of a cursor window, as the position committed with its rows remembers it: the window's
 * top, the key range the read covered, and the transactions in progress in the snapshot it read in.
 * Rows those transactions wrote were invisible to the read whatever their cursor value, so the next
 * read takes them too (a late commit), by {@code xmin}. An entry is one line of a {@link
 * io.skippr.core.record.ReadPositions} position.
 *
 * @param upTo the window's top as PostgreSQL text of the cursor column's type; null when no row had
 *     a cursor value
 * @param keyFrom inclusive lower bound of the integer key read; null for none
 * @param keyTo exclusive upper bound of the integer key read; null for none
 * @param xids the transactions in progress in the read's snapshot, as the 32-bit ids rows carry in
 *     {@code xmin}
 * @param after the window's exclusive lower bound, for an entry of a continuous run (a "chained"
 *     entry: {@link Frontier} links windows by it); null for none
 * @param includeNull for a chained entry, whether its window reads NULL cursor values; null for an
 *     entry of a {@code --once} run or of an earlier version, which says everything up to {@code
 *     upTo} was read
 * @param read for a read whose late commits are to be read, the parts of them already read (and
 *     committed) by late-commit splits cancelled while they read: not read again; not part of the
 *     read's identity
 */
record ReadEntry(
        String upTo,
        Long keyFrom,
        Long keyTo,
        List<Long> xids,
        String after,
        Boolean includeNull,
        List<Part> read) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Rows of transactions {@code xids} whose key is at or below {@code lastKey} (PostgreSQL text,
     * in key order): what a late-commit split read of them, in key order, before it was cancelled.
     */
    record Part(List<String> lastKey, List<Long> xids) {
        Part {
            lastKey = List.copyOf(lastKey);
            xids = List.copyOf(xids);
        }
    }

    ReadEntry {
        xids = List.copyOf(xids);
        read = read == null ? List.of() : List.copyOf(read);
    }

    ReadEntry(
            String upTo,
            Long keyFrom,
            Long keyTo,
            List<Long> xids,
            String after,
            Boolean includeNull) {
        this(upTo, keyFrom, keyTo, xids, after, includeNull, List.of());
    }

    /** An entry of a {@code --once} run: everything up to {@code upTo} in its key range read. */
    ReadEntry(String upTo, Long keyFrom, Long keyTo, List<Long> xids) {
        this(upTo, keyFrom, keyTo, xids, null, null);
    }

    /** The entry of a continuous run's read of {@code window}. */
    static ReadEntry chained(CursorWindow window, Long keyFrom, Long keyTo, List<Long> xids) {
        return new ReadEntry(
                window.upTo(), keyFrom, keyTo, xids, window.after(), window.includeNull());
    }

    /** Whether this is an entry of a continuous run's window. */
    boolean chained() {
        return includeNull != null;
    }

    /** This entry without its transactions: the read it names, whatever is still open of it. */
    ReadEntry identity() {
        return new ReadEntry(upTo, keyFrom, keyTo, List.of(), after, includeNull);
    }

    /**
     * One entry per read that {@code entries} name, with the transactions all of its entries name:
     * those still open, since each later read of its late commits names the ones it left open.
     */
    static List<ReadEntry> perRead(Collection<ReadEntry> entries) {
        java.util.Map<ReadEntry, List<Long>> open = new java.util.LinkedHashMap<>();
        for (ReadEntry e : entries) {
            open.merge(e.identity(), e.xids(), ReadEntry::both);
        }
        List<ReadEntry> reads = new ArrayList<>();
        open.forEach(
                (read, xids) ->
                        reads.add(
                                new ReadEntry(
                                        read.upTo,
                                        read.keyFrom,
                                        read.keyTo,
                                        xids,
                                        read.after,
                                        read.includeNull)));
        return reads;
    }

    private static List<Long> both(List<Long> a, List<Long> b) {
        List<Long> kept = new ArrayList<>(a);
        kept.retainAll(b);
        return kept;
    }

    /** The 32-bit transaction id a row's {@code xmin} holds for a 64-bit {@code txid}. */
    static long xid(long txid) {
        return txid & 0xffffffffL;
    }

    /** This entry with {@code parts} of its late commits read already. */
    ReadEntry withRead(List<Part> parts) {
        return new ReadEntry(upTo, keyFrom, keyTo, xids, after, includeNull, parts);
    }

    /**
     * This entry with only the transactions also in {@code stillOpen}, and none of its parts read:
     * a transaction still open had written nothing the reads before could see.
     */
    ReadEntry keeping(Collection<Long> stillOpen) {
        List<Long> kept = new ArrayList<>(xids);
        kept.retainAll(stillOpen);
        return new ReadEntry(upTo, keyFrom, keyTo, kept, after, includeNull);
    }

    /**
     * The opening of a late-commit split of {@code reads} reading in a snapshot that saw {@code
     * open} in progress: {@code {"late": [entry lines], "open": [xids]}}.
     */
    static String lateOpening(List<ReadEntry> reads, List<Long> open) {
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode list = doc.putArray("late");
        reads.forEach(r -> list.add(r.toLine()));
        ArrayNode xidList = doc.putArray("open");
        open.forEach(xidList::add);
        return doc.toString();
    }

    /**
     * The transactions in progress in the snapshot of a {@link #lateOpening}'s split; null for an
     * opening of an earlier version, which does not say.
     */
    static List<Long> lateOpenOf(String opening) {
        try {
            JsonNode doc = JSON.readTree(opening);
            if (!doc.has("open")) {
                return null;
            }
            List<Long> open = new ArrayList<>();
            doc.path("open").forEach(x -> open.add(x.asLong()));
            return open;
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable opening: " + opening, e);
        }
    }

    /** The reads of a {@link #lateOpening}; null for any other opening. */
    static List<ReadEntry> lateOf(String opening) {
        try {
            JsonNode doc = JSON.readTree(opening);
            if (!doc.has("late")) {
                return null;
            }
            List<ReadEntry> reads = new ArrayList<>();
            doc.path("late").forEach(n -> reads.add(parse(n.asText())));
            return reads;
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable opening: " + opening, e);
        }
    }

    String toLine() {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("upTo", upTo);
        doc.put("keyFrom", keyFrom);
        doc.put("keyTo", keyTo);
        ArrayNode list = doc.putArray("xids");
        xids.forEach(list::add);
        if (chained()) {
            doc.put("after", after);
            doc.put("includeNull", includeNull);
        }
        if (!read.isEmpty()) {
            ArrayNode parts = doc.putArray("read");
            for (Part part : read) {
                ObjectNode p = parts.addObject();
                ArrayNode key = p.putArray("key");
                part.lastKey().forEach(key::add);
                ArrayNode partXids = p.putArray("xids");
                part.xids().forEach(partXids::add);
            }
        }
        return doc.toString();
    }

    static ReadEntry parse(String line) {
        try {
            JsonNode doc = JSON.readTree(line);
            List<Long> xids = new ArrayList<>();
            doc.path("xids").forEach(x -> xids.add(x.asLong()));
            List<Part> read = new ArrayList<>();
            for (JsonNode p : doc.path("read")) {
                List<String> key = new ArrayList<>();
                p.path("key").forEach(k -> key.add(k.asText()));
                List<Long> partXids = new ArrayList<>();
                p.path("xids").forEach(x -> partXids.add(x.asLong()));
                read.add(new Part(key, partXids));
            }
            return new ReadEntry(
                    doc.path("upTo").isNull() ? null : doc.path("upTo").asText(),
                    doc.path("keyFrom").isNull() ? null : doc.path("keyFrom").asLong(),
                    doc.path("keyTo").isNull() ? null : doc.path("keyTo").asLong(),
                    xids,
                    doc.path("after").isTextual() ? doc.path("after").asText() : null,
                    doc.has("includeNull") ? doc.path("includeNull").asBoolean() : null,
                    read);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable read position entry: " + line, e);
        }
    }
}
