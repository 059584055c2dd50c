package io.skippr.config.model;

import java.util.Optional;

/**
 * A validated pipeline. References are entry names within their sections.
 *
 * @param dataSink the name in {@code data_sinks}, or null when records stay in the WAL
 * @param deadletterSink the name in {@code deadletter_sinks}, or null to discard deadletters
 * @param writeMode append, merge or replace as written; null when not written (the sink's default)
 * @param softDeletes {@code soft_deletes: true}: a change data capture delete marks the key's row
 *     {@code _skippr_deleted} in {@code merge} instead of removing it
 */
public record PipelineDef(
        String name,
        String dataSource,
        String dataSink,
        String deadletterSink,
        String writeMode,
        boolean softDeletes,
        Location location) {

    public PipelineDef(
            String name,
            String dataSource,
            String dataSink,
            String deadletterSink,
            String writeMode,
            Location location) {
        this(name, dataSource, dataSink, deadletterSink, writeMode, false, location);
    }

    public Optional<String> dataSinkName() {
        return Optional.ofNullable(dataSink);
    }

    public Optional<String> deadletterSinkName() {
        return Optional.ofNullable(deadletterSink);
    }
}
