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
 */
record ReadEntry(String upTo, Long keyFrom, Long keyTo, List<Long> xids) {
    private static final ObjectMapper JSON = new ObjectMapper();

    ReadEntry {
        xids = List.copyOf(xids);
    }

    /** The 32-bit transaction id a row's {@code xmin} holds for a 64-bit {@code txid}. */
    static long xid(long txid) {
        return txid & 0xffffffffL;
    }

    /** This entry with only the transactions also in {@code stillOpen}. */
    ReadEntry keeping(Collection<Long> stillOpen) {
        List<Long> kept = new ArrayList<>(xids);
        kept.retainAll(stillOpen);
        return new ReadEntry(upTo, keyFrom, keyTo, kept);
    }

    String toLine() {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("upTo", upTo);
        doc.put("keyFrom", keyFrom);
        doc.put("keyTo", keyTo);
        ArrayNode list = doc.putArray("xids");
        xids.forEach(list::add);
        return doc.toString();
    }

    static ReadEntry parse(String line) {
        try {
            JsonNode doc = JSON.readTree(line);
            List<Long> xids = new ArrayList<>();
            doc.path("xids").forEach(x -> xids.add(x.asLong()));
            return new ReadEntry(
                    doc.path("upTo").isNull() ? null : doc.path("upTo").asText(),
                    doc.path("keyFrom").isNull() ? null : doc.path("keyFrom").asLong(),
                    doc.path("keyTo").isNull() ? null : doc.path("keyTo").asLong(),
                    xids);
        } catch (IOException e) {
            throw new UncheckedIOException("unreadable read position entry: " + line, e);
        }
    }
}
