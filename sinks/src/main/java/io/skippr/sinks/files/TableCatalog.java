package io.skippr.sinks.files;

import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.io.Serializable;

/**
 * A catalog that must describe a file sink's tables before their files are published, such as AWS
 * Glue for Athena. A writer calls it each time it opens a file (a new stream, schema version or
 * partition), so the catalog holds every column and partition a file needs before the file is even
 * staged, let alone committed.
 */
public interface TableCatalog extends Serializable {
    /** No catalog: files only. */
    TableCatalog NONE = (schema, partition) -> {};

    /**
     * Makes the catalog's table for {@code schema}'s stream hold its columns and the partition.
     * Called from several writer subtasks at once and again after every restart: it must be
     * idempotent and safe to race.
     *
     * @param partition the file's partition folder, such as {@code dt=2026-11-29}, or "" when the
     *     sink has no partitions
     */
    void prepare(StreamSchema schema, String partition) throws IOException;
}
