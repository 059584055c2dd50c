package io.skippr.core.record;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The text of a {@link ReadPosition}: a set of entries, each a line the source wrote and alone
 * understands, after a header line. Sinks only store and combine them; two positions of one run
 * combine by union, so the order in which subtasks' positions arrive does not matter. A position
 * without the header is a cursor value as earlier versions committed it.
 */
public final class ReadPositions {
    private static final String HEADER = "#skippr-positions";

    private ReadPositions() {}

    /** Whether {@code text} holds entries (rather than an earlier version's cursor value). */
    public static boolean isEntries(String text) {
        return text != null && (text.equals(HEADER) || text.startsWith(HEADER + "\n"));
    }

    /** The text of a set of entries; an entry must not hold a line break. */
    public static String of(Collection<String> entries) {
        StringBuilder out = new StringBuilder(HEADER);
        for (String entry : new TreeSet<>(entries)) {
            if (entry.indexOf('\n') >= 0 || entry.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("a position entry holds a line break: " + entry);
            }
            out.append('\n').append(entry);
        }
        return out.toString();
    }

    /** The entries of {@code text}, which {@link #isEntries} must hold. */
    public static Set<String> entries(String text) {
        if (!isEntries(text)) {
            throw new IllegalArgumentException("not a position of entries: " + text);
        }
        List<String> lines = text.lines().toList();
        return new TreeSet<>(lines.subList(1, lines.size()));
    }

    /** The union of two positions of one stream. */
    public static String union(String a, String b) {
        Set<String> all = new TreeSet<>(entries(a));
        all.addAll(entries(b));
        return of(all);
    }
}
