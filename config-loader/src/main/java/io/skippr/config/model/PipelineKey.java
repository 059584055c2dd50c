package io.skippr.config.model;

import io.skippr.config.Section;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The keys of a pipeline entry. */
public enum PipelineKey {
    DATA_SOURCE("data_source", Section.DATA_SOURCES),
    DATA_SINK("data_sink", Section.DATA_SINKS),
    DEADLETTER_SINK("deadletter_sink", Section.DEADLETTER_SINKS),
    WRITE_MODE("write_mode", null),
    SOFT_DELETES("soft_deletes", null);

    /** The write modes; the first is the default. */
    public static final List<String> WRITE_MODES = List.of("append", "merge", "replace");

    private final String key;
    private final Section section;

    PipelineKey(String key, Section section) {
        this.key = key;
        this.section = section;
    }

    public String key() {
        return key;
    }

    /** The section a reference key points into; null for a plain value. */
    public Section section() {
        return section;
    }

    public static Optional<PipelineKey> byKey(String key) {
        return Arrays.stream(values()).filter(k -> k.key.equals(key)).findFirst();
    }

    public static List<String> keys() {
        return Arrays.stream(values()).map(PipelineKey::key).toList();
    }
}
