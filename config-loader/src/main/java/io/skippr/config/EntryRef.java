package io.skippr.config;

/** A reference to a connector entry, written {@code data_sinks.warehouse} in YAML. */
public record EntryRef(Section section, String name) {

    @Override
    public String toString() {
        return section.key() + "." + name;
    }
}
