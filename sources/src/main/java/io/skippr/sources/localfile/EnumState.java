package io.skippr.sources.localfile;

import io.skippr.core.record.StreamSchema;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The enumerator's checkpointed state.
 *
 * @param schema the stream schema inferred so far, or null before any file was inspected
 * @param knownPaths every file ever discovered (assigned or pending)
 * @param pendingSplits discovered files not assigned to a reader yet, in path order
 * @param discovered whether the first listing of the glob completed (a bounded source lists once)
 * @param readTo per known file no reader is reading now, how far it was read (a {@link FileEntry}
 *     line): a continuous run reads what is appended after it
 * @param nextNumber the number the next split gets ({@link FileSplit#number})
 * @param out per file, the number of its split pending or handed out whose report did not arrive
 *     yet: the one report the enumerator takes for the file ({@link FileRead})
 */
public record EnumState(
        StreamSchema schema,
        List<String> knownPaths,
        List<FileSplit> pendingSplits,
        boolean discovered,
        Map<String, String> readTo,
        long nextNumber,
        Map<String, Long> out) {

    public EnumState {
        knownPaths = List.copyOf(knownPaths);
        pendingSplits = List.copyOf(pendingSplits);
        readTo = Map.copyOf(readTo);
        out = Map.copyOf(out);
        Objects.requireNonNull(knownPaths);
    }

    /**
     * A state of an earlier version, without split numbers: its pending splits are the ones out,
     * unnumbered (-1), and a report of an unnumbered split is taken while its file has no numbered
     * one out.
     */
    public EnumState(
            StreamSchema schema,
            List<String> knownPaths,
            List<FileSplit> pendingSplits,
            boolean discovered,
            Map<String, String> readTo) {
        this(schema, knownPaths, pendingSplits, discovered, readTo, 0, outOf(pendingSplits));
    }

    private static Map<String, Long> outOf(List<FileSplit> pending) {
        Map<String, Long> out = new java.util.HashMap<>();
        pending.forEach(split -> out.put(split.path(), split.number()));
        return out;
    }

    static EnumState initial() {
        return new EnumState(null, List.of(), List.of(), false, Map.of(), 0, Map.of());
    }
}
