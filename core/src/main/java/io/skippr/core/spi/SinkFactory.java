package io.skippr.core.spi;

/**
 * Builds the sink of one data-sink kind. Registered in {@code
 * META-INF/services/io.skippr.core.spi.SinkFactory}, chosen by {@link #kind()}.
 */
public interface SinkFactory {
    /** The catalog kind, such as {@code LocalFile}. */
    String kind();

    SkipprSink create(SinkContext context);
}
