package io.skippr.core.spi;

import io.skippr.config.model.ResolvedSettings;
import java.util.Map;
import org.apache.flink.util.function.SerializableSupplier;

/**
 * What a source is built from.
 *
 * @param pipeline the pipeline's name
 * @param entry the data source entry's name in skippr.yml (the default stream name of a file
 *     source)
 * @param settings the entry's resolved settings
 * @param bounded true for {@code --once}: read what is there and finish; false to keep polling
 * @param startPositions per stream, the highest cursor value already committed by the sink, as text
 *     (see {@link io.skippr.core.record.CursorValues}); rows with a cursor above it are read. Empty
 *     for a first run.
 * @param committed reads the data sink's committed positions while the job runs (a continuous CDC
 *     source confirms its slot up to them); null when the sink cannot be read from a task
 */
public record SourceContext(
        String pipeline,
        String entry,
        ResolvedSettings settings,
        boolean bounded,
        Map<String, String> startPositions,
        SerializableSupplier<Map<String, String>> committed) {

    public SourceContext(
            String pipeline,
            String entry,
            ResolvedSettings settings,
            boolean bounded,
            Map<String, String> startPositions) {
        this(pipeline, entry, settings, bounded, startPositions, null);
    }

    public SourceContext {
        startPositions = Map.copyOf(startPositions);
    }
}
