package io.skippr.sources.postgres;

import io.skippr.core.record.ReadPositions;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The committed positions of a CDC stream: entries {@code cdc <slot> <end LSN>}, 16 hex digits, so
 * text order is WAL order. An entry says every change of the slot's transactions that end at or
 * before the LSN is in the destination (for that stream); the stream reader writes one for every
 * table at once, after whole transactions.
 */
public final class CdcPositions {
    private static final String PREFIX = "cdc ";

    private CdcPositions() {}

    static String entry(String slot, long endLsn) {
        return PREFIX + slot + " " + String.format(Locale.ROOT, "%016X", endLsn);
    }

    /**
     * The LSN every table's committed position covers, the lowest of them: where the stream
     * restarts and what the slot may confirm; 0 when a table has none.
     */
    static long committed(Map<String, String> positions, List<TableInfo> tables, String slot) {
        long lowest = Long.MAX_VALUE;
        for (TableInfo table : tables) {
            long lsn = highest(positions.get(table.stream()), slot);
            if (lsn <= 0) {
                return 0;
            }
            lowest = Math.min(lowest, lsn);
        }
        return lowest == Long.MAX_VALUE ? 0 : lowest;
    }

    /** The highest LSN of {@code slot}'s entries in {@code position}; 0 for none. */
    public static long highest(String position, String slot) {
        if (!ReadPositions.isEntries(position)) {
            return 0;
        }
        long highest = 0;
        String prefix = PREFIX + slot + " ";
        for (String entry : ReadPositions.entries(position)) {
            if (entry.startsWith(prefix)) {
                highest =
                        Math.max(
                                highest,
                                Long.parseUnsignedLong(entry.substring(prefix.length()), 16));
            }
        }
        return highest;
    }

    /** The highest entry per slot when every entry is a CDC entry; null otherwise. */
    static String compact(String position) {
        Set<String> entries = ReadPositions.entries(position);
        Map<String, String> top = new TreeMap<>();
        for (String entry : entries) {
            if (!entry.startsWith(PREFIX)) {
                return null;
            }
            String slot = entry.substring(0, entry.lastIndexOf(' '));
            top.merge(slot, entry, (a, b) -> a.compareTo(b) >= 0 ? a : b);
        }
        return entries.isEmpty() ? null : ReadPositions.of(top.values());
    }
}
