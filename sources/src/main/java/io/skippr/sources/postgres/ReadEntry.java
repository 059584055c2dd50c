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
 * @param band the ids of transactions that had none when the read's snapshot was taken, whose rows
 *     are late commits too while a transaction that ran then still runs; null for none
 */
record ReadEntry(
        String upTo,
        Long keyFrom,
        Long keyTo,
        List<Long> xids,
        String after,
        Boolean includeNull,
        List<Part> read,
        XidBand band) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Rows of transactions {@code xids}, and of those with ids from {@code from} up to {@code to}
     * except {@code except}, whose key is at or below {@code lastKey} (PostgreSQL text, in key
     * order), or above it: what a late-commit split read of them, in key order, before it was
     * cancelled; or what a split restored after {@code lastKey} read of them in its new snapshot,
     * where they had committed.
     *
     * @param from the first id of the part of a {@link XidBand} read; null for none
     * @param to the end (exclusive) of the part of the band read: the split's snapshot's xmax
     * @param except the ids in the band part still in progress in the split's snapshot: not read
     * @param above whether the rows are those above {@code lastKey}, not those at or below it
     */
    record Part(
            List<String> lastKey,
            List<Long> xids,
            Long from,
            Long to,
            List<Long> except,
            boolean above) {
        Part {
            lastKey = List.copyOf(lastKey);
            xids = List.copyOf(xids);
            except = except == null ? List.of() : List.copyOf(except);
        }

        Part(List<String> lastKey, List<Long> xids, Long from, Long to, List<Long> except) {
            this(lastKey, xids, from, to, except, false);
        }

        Part(List<String> lastKey, List<Long> xids) {
            this(lastKey, xids, null, null, List.of());
        }

        ObjectNode toJson() {
            ObjectNode p = JSON.createObjectNode();
            lastKey.forEach(p.putArray("key")::add);
            xids.forEach(p.putArray("xids")::add);
            if (from != null) {
                p.put("from", from);
                p.put("to", to);
                except.forEach(p.putArray("except")::add);
            }
            if (above) {
                p.put("above", true);
            }
            return p;
        }

        static Part parse(JsonNode p) {
            List<String> key = new ArrayList<>();
            p.path("key").forEach(k -> key.add(k.asText()));
            List<Long> xids = new ArrayList<>();
            p.path("xids").forEach(x -> xids.add(x.asLong()));
            List<Long> except = new ArrayList<>();
            p.path("except").forEach(x -> except.add(x.asLong()));
            return new Part(
                    key,
                    xids,
                    p.has("from") ? p.path("from").asLong() : null,
                    p.has("to") ? p.path("to").asLong() : null,
                    except,
                    p.path("above").asBoolean(false));
        }

        /** A part as one line of text, for a split's checkpointed state. */
        String toLine() {
            return toJson().toString();
        }

        static Part parse(String line) {
            try {
                return parse(JSON.readTree(line));
            } catch (IOException e) {
                throw new UncheckedIOException("unreadable part: " + line, e);
            }
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
        this(upTo, keyFrom, keyTo, xids, after, includeNull, (XidBand) null);
    }

    ReadEntry(
            String upTo,
            Long keyFrom,
            Long keyTo,
            List<Long> xids,
            String after,
            Boolean includeNull,
            XidBand band) {
        this(upTo, keyFrom, keyTo, xids, after, includeNull, List.of(), band);
    }

    /** An entry of a {@code --once} run: everything up to {@code upTo} in its key range read. */
    ReadEntry(String upTo, Long keyFrom, Long keyTo, List<Long> xids) {
        this(upTo, keyFrom, keyTo, xids, null, null);
    }

    /** The entry of a continuous run's read of {@code window}. */
    static ReadEntry chained(
            CursorWindow window, Long keyFrom, Long keyTo, List<Long> xids, XidBand band) {
        return new ReadEntry(
                window.upTo(), keyFrom, keyTo, xids, window.after(), window.includeNull(), band);
    }

    /** What this read could not see, for a split that reads on from it. */
    Unseen unseen() {
        return new Unseen(xids, band, read);
    }

    /** Whether rows of transactions this read could not see may still be late commits. */
    boolean open() {
        return !xids.isEmpty() || band != null;
    }

    /**
     * Whether one of the transactions this read could not see has ended by {@code now}, or its band
     * runs none: only then can rows it left to read late have become visible.
     */
    boolean endedSome(Snapshot now) {
        for (Long x : xids) {
            if (!now.inProgress().contains(x)) {
                return true;
            }
        }
        return band != null
                && (band.running().isEmpty() || !now.runningAfter().containsAll(band.running()));
    }

    /** Whether this is an entry of a continuous run's window. */
    boolean chained() {
        return includeNull != null;
    }

    /** This entry without its transactions: the read it names, whatever is still open of it. */
    ReadEntry identity() {
        return new ReadEntry(upTo, keyFrom, keyTo, List.of(), after, includeNull, List.of(), null);
    }

    /**
     * One entry per read that {@code entries} name, with the transactions all of its entries leave
     * open (those still open, since each later read of its late commits names the ones it left
     * open) and the parts of them any says were read.
     */
    static List<ReadEntry> perRead(Collection<ReadEntry> entries) {
        java.util.Map<ReadEntry, ReadEntry> open = new java.util.LinkedHashMap<>();
        for (ReadEntry e : entries) {
            open.merge(e.identity(), e, ReadEntry::bothOpen);
        }
        return List.copyOf(open.values());
    }

    /** Entries of one read: the transactions both leave open, ids and bands. */
    private static ReadEntry bothOpen(ReadEntry a, ReadEntry b) {
        java.util.Set<Long> kept = new java.util.LinkedHashSet<>();
        for (Long x : a.xids) {
            if (b.xids.contains(x) || b.band != null && b.band.covers(x)) {
                kept.add(x);
            }
        }
        for (Long x : b.xids) {
            if (a.band != null && a.band.covers(x)) {
                kept.add(x);
            }
        }
        java.util.Set<Part> parts = new java.util.LinkedHashSet<>(a.read);
        parts.addAll(b.read);
        return new ReadEntry(
                a.upTo,
                a.keyFrom,
                a.keyTo,
                List.copyOf(kept),
                a.after,
                a.includeNull,
                List.copyOf(parts),
                XidBand.both(a.band, b.band));
    }

    /** The 32-bit transaction id a row's {@code xmin} holds for a 64-bit {@code txid}. */
    static long xid(long txid) {
        return txid & 0xffffffffL;
    }

    /** This entry with {@code parts} of its late commits read already. */
    ReadEntry withRead(List<Part> parts) {
        return new ReadEntry(upTo, keyFrom, keyTo, xids, after, includeNull, parts, band);
    }

    /** This entry with {@code xids} and {@code band} open instead of its own. */
    ReadEntry withOpen(List<Long> xids, XidBand band) {
        return new ReadEntry(upTo, keyFrom, keyTo, xids, after, includeNull, band);
    }

    /**
     * This entry after a late read whose snapshot saw {@code inProgress}, with {@code readBand} its
     * snapshot's xmax and the transactions running before it was taken; none of its parts read: of
     * its transactions (ids, and those of its band), those still in progress, and those of its band
     * that may still take ids.
     */
    ReadEntry keeping(List<Long> inProgress, XidBand readBand) {
        List<Long> kept = new ArrayList<>();
        for (Long x : inProgress) {
            if (xids.contains(x) || band != null && band.covers(x)) {
                kept.add(x);
            }
        }
        XidBand left = XidBand.both(band, readBand);
        return withOpen(kept, left == null || left.running().isEmpty() ? null : left);
    }

    /**
     * The opening of a late-commit split of {@code reads} reading in a snapshot that saw {@code
     * open} in progress, below {@code xmax}: {@code {"late": [entry lines], "open": [xids], "xmax":
     * n}}.
     */
    static String lateOpening(List<ReadEntry> reads, List<Long> open, long xmax) {
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode list = doc.putArray("late");
        reads.forEach(r -> list.add(r.toLine()));
        ArrayNode xidList = doc.putArray("open");
        open.forEach(xidList::add);
        doc.put("xmax", xmax);
        return doc.toString();
    }

    /** The xmax of a {@link #lateOpening}'s snapshot; null for an opening of an earlier version. */
    static Long lateXmaxOf(String opening) {
        try {
            JsonNode doc = JSON.readTree(opening);
            return doc.has("xmax") ? doc.path("xmax").asLong() : null;
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable opening: " + opening, e);
        }
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
            read.forEach(part -> parts.add(part.toJson()));
        }
        if (band != null) {
            band.write(doc);
        }
        return doc.toString();
    }

    static ReadEntry parse(String line) {
        try {
            JsonNode doc = JSON.readTree(line);
            List<Long> xids = new ArrayList<>();
            doc.path("xids").forEach(x -> xids.add(x.asLong()));
            List<Part> read = new ArrayList<>();
            doc.path("read").forEach(p -> read.add(Part.parse(p)));
            return new ReadEntry(
                    doc.path("upTo").isNull() ? null : doc.path("upTo").asText(),
                    doc.path("keyFrom").isNull() ? null : doc.path("keyFrom").asLong(),
                    doc.path("keyTo").isNull() ? null : doc.path("keyTo").asLong(),
                    xids,
                    doc.path("after").isTextual() ? doc.path("after").asText() : null,
                    doc.has("includeNull") ? doc.path("includeNull").asBoolean() : null,
                    read,
                    XidBand.read(doc));
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable read position entry: " + line, e);
        }
    }
}
