package io.skippr.sources.postgres.cdc;

import java.nio.file.Path;

/**
 * How much of an open transaction {@link ChangeStream} keeps in memory: the first {@code
 * maxChangesInMemory} changes; the rest go to a file of their own under {@code directory}
 * (owner-only permissions), deleted once read or closed.
 */
public record SpillSettings(int maxChangesInMemory, Path directory) {
    public static final int DEFAULT_MAX_CHANGES_IN_MEMORY = 10_000;

    public SpillSettings {
        if (maxChangesInMemory < 0) {
            throw new IllegalArgumentException(
                    "maxChangesInMemory must be 0 or more, not " + maxChangesInMemory);
        }
    }

    /** 10,000 changes in memory, the rest under {@code java.io.tmpdir}. */
    public static SpillSettings defaults() {
        return new SpillSettings(
                DEFAULT_MAX_CHANGES_IN_MEMORY, Path.of(System.getProperty("java.io.tmpdir")));
    }
}
