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
 */
public record EnumState(
        StreamSchema schema,
        List<String> knownPaths,
        List<FileSplit> pendingSplits,
        boolean discovered,
        Map<String, String> readTo) {

    public EnumState {
        knownPaths = List.copyOf(knownPaths);
        pendingSplits = List.copyOf(pendingSplits);
        readTo = Map.copyOf(readTo);
        Objects.requireNonNull(knownPaths);
    }

    static EnumState initial() {
        return new EnumState(null, List.of(), List.of(), false, Map.of());
    }
}
