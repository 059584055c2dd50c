package io.skippr.sources.localfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.record.ReadPositions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A committed position of files made small without reading them, so that a sink which keeps the
 * union of every continuous commit's positions in one place (an Iceberg table's properties) does
 * not grow with each checkpoint. {@link LocalFileSource#committed} reads the result as it reads the
 * position: per file, the entries of generations before the newest are dropped, and the entries
 * that read the file from its start without a hole become the one that reached furthest. Entries
 * after a hole stay as they are.
 */
final class PositionCompaction {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PositionCompaction() {}

    /** The compacted position; null when {@code position}'s entries are not this source's. */
    static String compact(String position) {
        Map<String, List<Line>> byFile = new TreeMap<>();
        for (String line : ReadPositions.entries(position)) {
            FileEntry entry;
            if (ReadPositions.isProgress(line)) {
                String[] parts = ReadPositions.progressParts(line);
                if (!has(parts[0], "fromRecords")) {
                    return null;
                }
                entry = FileEntry.progress(parts[0], parts[1]);
            } else if (has(line, "offset")) {
                entry = FileEntry.parse(line);
            } else {
                return null;
            }
            byFile.computeIfAbsent(entry.file(), f -> new ArrayList<>()).add(new Line(entry, line));
        }
        List<String> kept = new ArrayList<>();
        byFile.values().forEach(lines -> kept.addAll(compactFile(lines)));
        return ReadPositions.of(kept);
    }

    private static List<String> compactFile(List<Line> lines) {
        int generation = lines.stream().mapToInt(l -> l.entry.generation()).max().orElseThrow();
        List<Line> newest =
                new ArrayList<>(
                        lines.stream().filter(l -> l.entry.generation() == generation).toList());
        newest.sort(Comparator.comparingLong(l -> Math.max(0, l.entry.fromRecords())));
        FileEntry reached = null;
        long at = 0;
        int prefix = 0; // the entries read from the start without a hole
        for (Line l : newest) {
            FileEntry e = l.entry;
            if (Math.max(0, e.fromRecords()) > at) {
                break;
            }
            prefix++;
            if (e.records() > at || (e.records() == at && e.offset() >= 0)) {
                at = e.records();
                reached = e;
            }
        }
        List<String> kept = new ArrayList<>();
        if (reached == null) {
            newest.forEach(l -> kept.add(l.text));
            return kept;
        }
        kept.add(
                new FileEntry(
                                reached.file(),
                                reached.offset(),
                                at,
                                reached.headBytes(),
                                reached.head(),
                                generation)
                        .toLine());
        newest.subList(prefix, newest.size()).forEach(l -> kept.add(l.text));
        return kept;
    }

    private static boolean has(String text, String field) {
        try {
            JsonNode doc = JSON.readTree(text);
            return doc != null && doc.isObject() && doc.has("file") && doc.has(field);
        } catch (IOException e) {
            return false;
        }
    }

    /** An entry and its text as committed. */
    private record Line(FileEntry entry, String text) {}
}
