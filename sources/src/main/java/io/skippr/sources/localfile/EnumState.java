package io.skippr.sources.localfile;

import io.skippr.core.record.StreamSchema;
import java.util.List;
import java.util.Objects;

/**
 * The enumerator's checkpointed state.
 *
 * @param schema the stream schema inferred so far, or null before any file was inspected
 * @param knownPaths every file ever discovered (assigned or pending): never read again, so a file
 *     that grows after it was discovered is not re-read
 * @param pendingSplits discovered files not assigned to a reader yet, in path order
 * @param discovered whether the first listing of the glob completed (a bounded source lists once)
 */
public record EnumState(
        StreamSchema schema,
        List<String> knownPaths,
        List<FileSplit> pendingSplits,
        boolean discovered) {

    public EnumState {
        knownPaths = List.copyOf(knownPaths);
        pendingSplits = List.copyOf(pendingSplits);
        Objects.requireNonNull(knownPaths);
    }

    static EnumState initial() {
        return new EnumState(null, List.of(), List.of(), false);
    }
}
