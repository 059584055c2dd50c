package io.skippr.config.model;

import io.skippr.config.EntryRef;
import io.skippr.config.Section;
import io.skippr.config.catalog.KindSpec;
import java.util.Map;
import java.util.Optional;

/**
 * One validated connector entry, such as {@code data_sinks.warehouse}. Settings hold what the file
 * says: {@code ${VAR}} references stay unresolved and absent fields stay absent.
 *
 * @param settings field name to String, Long, Boolean or List of String; a String may hold {@code
 *     ${VAR}} references
 * @param schemaSink the name in {@code schema_sinks} this data sink links, or null
 */
public record ConnectorEntry(
        Section section,
        String name,
        KindSpec kind,
        Map<String, Object> settings,
        String schemaSink,
        Location location,
        Map<String, Location> fieldLocations) {

    public ConnectorEntry {
        settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(settings));
        fieldLocations = Map.copyOf(fieldLocations);
    }

    public EntryRef ref() {
        return new EntryRef(section, name);
    }

    /** {@code data_sinks.warehouse.Postgres}. */
    public String path() {
        return ref() + "." + kind.name();
    }

    public Location locationOf(String field) {
        return fieldLocations.getOrDefault(field, location);
    }

    public Optional<String> schemaSinkName() {
        return Optional.ofNullable(schemaSink);
    }
}
