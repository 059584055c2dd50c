package io.skippr.config.model;

import io.skippr.config.Section;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** A config file that passed validation: its pipelines and connector entries, in file order. */
public record ConfigModel(
        String file,
        Map<String, PipelineDef> pipelines,
        Map<Section, Map<String, ConnectorEntry>> entries) {

    public ConfigModel {
        pipelines = Collections.unmodifiableMap(new LinkedHashMap<>(pipelines));
        Map<Section, Map<String, ConnectorEntry>> copy = new LinkedHashMap<>();
        entries.forEach((k, v) -> copy.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
        entries = Collections.unmodifiableMap(copy);
    }

    public Map<String, ConnectorEntry> entries(Section section) {
        return entries.getOrDefault(section, Map.of());
    }

    public Optional<ConnectorEntry> entry(Section section, String name) {
        return Optional.ofNullable(entries(section).get(name));
    }

    public Optional<PipelineDef> pipeline(String name) {
        return Optional.ofNullable(pipelines.get(name));
    }
}
