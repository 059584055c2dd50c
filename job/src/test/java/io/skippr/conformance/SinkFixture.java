package io.skippr.conformance;

import io.skippr.config.catalog.Guarantee;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a destination tells the conformance kit: how to configure it and how to read back what it
 * holds. One small implementation per destination.
 */
public interface SinkFixture {
    /**
     * The body of a {@code data_sinks} entry, indented by four spaces, such as a Postgres block.
     */
    String sinkYaml(Path dir) throws Exception;

    /** Environment variables the entry refers to. */
    default Map<String, String> env() {
        return Map.of();
    }

    /**
     * Every row the destination holds for {@code stream}, committed and visible to a reader, as
     * column name to value; includes {@code _skippr_id}.
     */
    List<Map<String, Object>> rows(Path dir, String stream) throws Exception;

    /** The guarantee the destination states, which the kit holds it to. */
    Guarantee guarantee();

    /** The write modes the destination supports; the others must be refused clearly. */
    default java.util.Set<String> writeModes() {
        return java.util.Set.of("append");
    }

    /**
     * Whether the destination stores timestamps beyond the 64-bit microsecond range (PostgreSQL
     * allows up to year 294276); if not, such rows must become load-stage deadletters.
     */
    default boolean storesExtremeTimestamps() {
        return true;
    }

    /** Releases what the fixture created (schemas, tables). */
    default void close() throws Exception {}
}
