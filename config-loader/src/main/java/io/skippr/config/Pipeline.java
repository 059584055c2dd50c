package io.skippr.config;

import io.skippr.config.model.PipelineKey;

/**
 * A pipeline as the Java API declares it: {@code new Pipeline(appDb, warehouse)}. References come
 * from {@link Config#getDataSource}, {@link Config#dataSink} and friends.
 *
 * @param dataSource the entry in data_sources it reads
 * @param dataSink the entry in data_sinks it loads, or null to keep records in the WAL
 * @param deadletterSink the entry in deadletter_sinks for failed records, or null to discard them
 * @param writeMode append, merge or replace; null for the default: merge on the key of each stream
 *     that has one, where the data sink can merge, else append
 * @param softDeletes {@code soft_deletes}: a change data capture delete marks the key's row in
 *     {@code merge} instead of removing it
 */
public record Pipeline(
        EntryRef dataSource,
        EntryRef dataSink,
        EntryRef deadletterSink,
        String writeMode,
        boolean softDeletes) {

    public Pipeline {
        require(dataSource, Section.DATA_SOURCES, "dataSource", false);
        require(dataSink, Section.DATA_SINKS, "dataSink", true);
        require(deadletterSink, Section.DEADLETTER_SINKS, "deadletterSink", true);
        if (writeMode != null && !PipelineKey.WRITE_MODES.contains(writeMode)) {
            throw new IllegalArgumentException(
                    "writeMode takes one of " + PipelineKey.WRITE_MODES + ", not " + writeMode);
        }
    }

    public Pipeline(
            EntryRef dataSource, EntryRef dataSink, EntryRef deadletterSink, String writeMode) {
        this(dataSource, dataSink, deadletterSink, writeMode, false);
    }

    public Pipeline(EntryRef dataSource) {
        this(dataSource, null, null, null);
    }

    public Pipeline(EntryRef dataSource, EntryRef dataSink) {
        this(dataSource, dataSink, null, null);
    }

    public Pipeline(EntryRef dataSource, EntryRef dataSink, EntryRef deadletterSink) {
        this(dataSource, dataSink, deadletterSink, null);
    }

    public Pipeline withWriteMode(String mode) {
        return new Pipeline(dataSource, dataSink, deadletterSink, mode, softDeletes);
    }

    public Pipeline withSoftDeletes(boolean soft) {
        return new Pipeline(dataSource, dataSink, deadletterSink, writeMode, soft);
    }

    private static void require(EntryRef ref, Section section, String what, boolean optional) {
        if (ref == null) {
            if (!optional) {
                throw new IllegalArgumentException(what + " is required");
            }
            return;
        }
        if (ref.section() != section) {
            throw new IllegalArgumentException(
                    what + " must refer to " + section.key() + ", not " + ref);
        }
    }
}
