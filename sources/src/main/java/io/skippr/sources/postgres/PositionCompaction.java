package io.skippr.sources.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.record.ReadPositions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A table's committed position made small without reading the table, so that a sink which keeps the
 * union of every continuous commit's positions in one place (an Iceberg table's properties) does
 * not grow with each checkpoint. {@link Frontier} reads the result as it reads the position:
 *
 * <ul>
 *   <li>the entries of one read become one, with the transactions all of them name (those still
 *       open);
 *   <li>progress entries of a read that finished are dropped;
 *   <li>a continuous run's window read whole, with no transaction left open and no split of it read
 *       in part besides, joins the window it chains to, and joins a {@code --once} run's top it
 *       starts at: the top moves up.
 * </ul>
 *
 * Windows are joined only where the chain is unambiguous (one window ends at the value, one starts
 * there, and no {@code --once} entry ends there), so no cursor values need comparing.
 */
final class PositionCompaction {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PositionCompaction() {}

    /** The compacted position; null when {@code position}'s entries are not this source's. */
    static String compact(String position) {
        List<ReadEntry> done = new ArrayList<>();
        List<String> progress = new ArrayList<>();
        for (String line : ReadPositions.entries(position)) {
            if (ReadPositions.isProgress(line)) {
                String opening = ReadPositions.progressParts(line)[0];
                if (!isOpening(opening)) {
                    return null;
                }
                progress.add(line);
            } else if (isEntry(line)) {
                done.add(ReadEntry.parse(line));
            } else {
                return null;
            }
        }
        List<ReadEntry> once = new ArrayList<>();
        Map<List<Object>, Window> windows = new LinkedHashMap<>();
        Set<ReadEntry> names = new java.util.HashSet<>();
        for (ReadEntry e : ReadEntry.perRead(done)) {
            names.add(e.identity());
            if (e.chained()) {
                windows.computeIfAbsent(
                                java.util.Arrays.asList(e.after(), e.upTo(), e.includeNull()),
                                k -> new Window())
                        .entries
                        .add(e);
            } else {
                once.add(e);
            }
        }
        List<String> kept = new ArrayList<>();
        for (String line : progress) {
            String opening = ReadPositions.progressParts(line)[0];
            if (ReadEntry.lateOf(opening) != null) {
                kept.add(line);
                continue;
            }
            ReadEntry split = ReadEntry.parse(opening);
            if (!names.contains(split.identity())) {
                kept.add(line);
                Window w =
                        windows.get(
                                java.util.Arrays.asList(
                                        split.after(), split.upTo(), split.includeNull()));
                if (w != null) { // its part read may have late commits: the window stays
                    w.partlyRead = true;
                }
            }
        }
        List<Window> chain = join(new ArrayList<>(windows.values()), once);
        for (Window w : chain) {
            w.entries.forEach(e -> kept.add(e.toLine()));
        }
        once.forEach(e -> kept.add(e.toLine()));
        return ReadPositions.of(kept);
    }

    /**
     * Joins whole windows along the chain, and into the top of the {@code --once} entries (which
     * {@code once} then holds) where they start at it.
     */
    private static List<Window> join(List<Window> windows, List<ReadEntry> once) {
        boolean joined = true;
        while (joined) {
            joined = false;
            Set<String> onceTops = new TreeSet<>(Comparator.nullsFirst(Comparator.naturalOrder()));
            once.forEach(e -> onceTops.add(e.upTo()));
            Map<String, Integer> starting = new HashMap<>();
            Map<String, Integer> ending = new HashMap<>();
            for (Window w : windows) {
                starting.merge(String.valueOf(w.after()), 1, Integer::sum);
                ending.merge(String.valueOf(w.upTo()), 1, Integer::sum);
            }
            for (Window next : windows) {
                String at = next.after();
                if (!next.whole()
                        || at == null
                        || next.includeNull()
                        || next.upTo() == null
                        || starting.get(at) != 1) {
                    continue;
                }
                List<ReadEntry> base = once.stream().filter(e -> !e.open()).toList();
                if (onceTops.size() == 1 && at.equals(onceTops.iterator().next())) {
                    if (ending.getOrDefault(at, 0) == 0 && base.size() == once.size()) {
                        once.clear(); // the --once run's top moves up to the window's
                        once.add(new ReadEntry(next.upTo(), null, null, List.of()));
                        windows.remove(next);
                        joined = true;
                        break;
                    }
                    continue;
                }
                if (onceTops.contains(at) || ending.getOrDefault(at, 0) != 1) {
                    continue;
                }
                Window before =
                        windows.stream()
                                .filter(w -> at.equals(w.upTo()) && w.whole())
                                .findFirst()
                                .orElse(null);
                if (before == null) {
                    continue;
                }
                Window both = new Window();
                both.entries.add(
                        ReadEntry.chained(
                                new CursorWindow(before.after(), next.upTo(), before.includeNull()),
                                null,
                                null,
                                List.of(),
                                null));
                windows.remove(before);
                windows.remove(next);
                windows.add(both);
                joined = true;
                break;
            }
        }
        return windows;
    }

    /** Whether {@code line} is a read entry of this source: a JSON object naming transactions. */
    private static boolean isEntry(String line) {
        JsonNode doc = json(line);
        return doc != null && doc.has("upTo") && doc.path("xids").isArray();
    }

    /** Whether {@code opening} is a split's opening of this source: a window's, or late reads'. */
    private static boolean isOpening(String opening) {
        JsonNode doc = json(opening);
        return doc != null && (doc.has("late") || doc.has("upTo") && doc.has("xids"));
    }

    private static JsonNode json(String text) {
        try {
            JsonNode doc = JSON.readTree(text);
            return doc != null && doc.isObject() ? doc : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The reads of one window of a continuous run. */
    private static final class Window {
        final List<ReadEntry> entries = new ArrayList<>();

        /** Whether a split of it read in part and not finished committed progress. */
        boolean partlyRead;

        String after() {
            return entries.get(0).after();
        }

        String upTo() {
            return entries.get(0).upTo();
        }

        boolean includeNull() {
            return entries.get(0).includeNull();
        }

        /**
         * Read in its whole key range, with no transaction of its reads still open and no split
         * read in part besides.
         */
        boolean whole() {
            if (partlyRead) {
                return false;
            }
            List<Long[]> ranges = new ArrayList<>();
            for (ReadEntry e : entries) {
                if (e.open()) {
                    return false;
                }
                ranges.add(new Long[] {e.keyFrom(), e.keyTo()});
            }
            ranges.sort(
                    Comparator.comparingLong((Long[] r) -> r[0] == null ? Long.MIN_VALUE : r[0]));
            Long at = null; // the lowest key not known to be read; null: from the lowest
            boolean first = true;
            for (Long[] r : ranges) {
                if (first ? r[0] != null : r[0] != null && r[0] > at) {
                    return false;
                }
                first = false;
                if (r[1] == null) {
                    return true;
                }
                at = at == null ? r[1] : Math.max(at, r[1]);
            }
            return false;
        }
    }
}
