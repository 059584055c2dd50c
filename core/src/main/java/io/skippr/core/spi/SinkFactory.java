package io.skippr.core.spi;

import java.util.Map;

/**
 * Builds the sink of one data-sink kind. Registered in {@code
 * META-INF/services/io.skippr.core.spi.SinkFactory}, chosen by {@link #kind()}.
 */
public interface SinkFactory {
    /** The catalog kind, such as {@code LocalFile}. */
    String kind();

    SkipprSink create(SinkContext context);

    /**
     * The positions the sink of {@code context} has committed ({@link
     * SkipprSink#committedPositions}), read without preparing the sink: nothing is created, checked
     * for a run or cleaned up, so {@code skipprd deadletters list} can read them from a destination
     * it only looks at. Empty where the sink holds no commit (no marker table, no commit log yet)
     * and for kinds that commit no positions.
     */
    Map<String, String> committedPositions(SinkContext context);
}
