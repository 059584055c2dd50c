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

    /**
     * The text of a {@link ReadPosition} a continuous source sends before a split's rows: {@code
     * entry} names the split, in the source's terms. It never reaches a sink: the job's progress
     * step keeps it, and before each checkpoint barrier sends {@link #progress} of the split.
     */
    public static String opening(String entry) {
        return OPENING + checkLine(entry);
    }

    /** Whether {@code text} is an {@link #opening}. */
    public static boolean isOpening(String text) {
        return text != null && text.startsWith(OPENING);
    }

    /** The entry of an {@link #opening}. */
    public static String openingEntry(String text) {
        if (!isOpening(text)) {
            throw new IllegalArgumentException("not an opening: " + text);
        }
        return text.substring(OPENING.length());
    }

    /**
     * The entry of a split read in part, as far as the record at {@code lastPosition} (a record's
     * position, in the source's terms): a checkpoint commits it with the rows read so far, so a run
     * that starts from the committed positions reads the rest. Its text is {@code "@progress
     * <length of opening>:<opening><lastPosition>"}.
     */
    public static String progress(String opening, String lastPosition) {
        return PROGRESS + opening.length() + ":" + checkLine(opening) + checkLine(lastPosition);
    }

    /** Whether an entry is a {@link #progress} entry. */
    public static boolean isProgress(String entry) {
        return entry.startsWith(PROGRESS);
    }

    /** The opening entry and the last record's position of a {@link #progress} entry. */
    public static String[] progressParts(String entry) {
        if (!isProgress(entry)) {
            throw new IllegalArgumentException("not a progress entry: " + entry);
        }
        int colon = entry.indexOf(':', PROGRESS.length());
        int from = colon + 1;
        int to = from + Integer.parseInt(entry.substring(PROGRESS.length(), colon));
        return new String[] {entry.substring(from, to), entry.substring(to)};
    }

    private static final String OPENING = "#skippr-opening ";
    private static final String PROGRESS = "@progress ";

    private static String checkLine(String text) {
        if (text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a position entry holds a line break: " + text);
        }
        return text;
    }

    /** The union of two positions of one stream. */
    public static String union(String a, String b) {
        Set<String> all = new TreeSet<>(entries(a));
        all.addAll(entries(b));
        return of(all);
    }

    /**
     * {@code position} made smaller by the source whose entries it holds ({@link
     * io.skippr.core.spi.SourceFactory#compact}), or unchanged when no source on the class path
     * knows them.
     */
    public static String compact(String position) {
        if (!isEntries(position)) {
            return position;
        }
        for (io.skippr.core.spi.SourceFactory source : Sources.ALL) {
            String compacted = source.compact(position);
            if (compacted != null) {
                return compacted;
            }
        }
        return position;
    }

    /** The sources on the class path, loaded when a position is first compacted. */
    private static final class Sources {
        static final List<io.skippr.core.spi.SourceFactory> ALL =
                java.util.ServiceLoader.load(
                                io.skippr.core.spi.SourceFactory.class,
                                io.skippr.core.spi.SourceFactory.class.getClassLoader())
                        .stream()
                        .map(java.util.ServiceLoader.Provider::get)
                        .toList();
    }
}
