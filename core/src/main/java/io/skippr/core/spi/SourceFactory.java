package io.skippr.core.spi;

import io.skippr.core.record.SourceRecord;
import org.apache.flink.api.connector.source.Source;

/**
 * Builds the Flink source of one data-source kind. Implementations are registered in {@code
 * META-INF/services/io.skippr.core.spi.SourceFactory} and chosen by {@link #kind()}, the catalog's
 * kind name.
 */
public interface SourceFactory {
    /** The catalog kind, such as {@code Postgres}. */
    String kind();

    /**
     * The source for one pipeline run. It emits, per stream, a {@link
     * io.skippr.core.record.SchemaChange} before the first row of each schema version, on every
     * subtask that emits rows of that stream (also after a restore).
     */
    Source<SourceRecord, ?, ?> create(SourceContext context);
}
