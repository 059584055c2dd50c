package io.skippr.config;

import io.skippr.config.catalog.Role;
import java.util.Optional;

/** The top-level sections of {@code skippr.yml} that hold connector entries. */
public enum Section {
    DATA_SOURCES("data_sources", Role.DATA_SOURCE, "data source"),
    DATA_SINKS("data_sinks", Role.DATA_SINK, "data sink"),
    SCHEMA_SINKS("schema_sinks", Role.SCHEMA_SINK, "schema sink"),
    DEADLETTER_SINKS("deadletter_sinks", Role.DATA_SINK, "deadletter sink");

    /** The pipelines section, which holds no connectors. */
    public static final String PIPELINES = "pipelines";

    private final String key;
    private final Role role;
    private final String label;

    Section(String key, Role role, String label) {
        this.key = key;
        this.role = role;
        this.label = label;
    }

    /** The YAML key and reference prefix: {@code data_sinks}. */
    public String key() {
        return key;
    }

    /** The role of the kinds its entries use; deadletter sinks use data-sink kinds. */
    public Role role() {
        return role;
    }

    public String label() {
        return label;
    }

    public static Optional<Section> byKey(String key) {
        for (Section section : values()) {
            if (section.key.equals(key)) {
                return Optional.of(section);
            }
        }
        return Optional.empty();
    }
}
