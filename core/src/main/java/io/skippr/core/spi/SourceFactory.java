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

    /**
     * Checks, before the job starts, what a run needs of the source: that it can be reached, that
     * the login works, that what the settings name exists and may be read. Returns the schemas of
     * the streams a run reads, as far as they are known before reading (empty when they are not).
     *
     * @throws io.skippr.config.ConfigException for what the user must fix in skippr.yml or in the
     *     source (a missing table, a wrong password, a missing privilege): exit code 2
     * @throws RuntimeException naming the source when it cannot be reached: exit code 1
     */
    default java.util.List<io.skippr.core.record.StreamSchema> check(SourceContext context) {
        return java.util.List.of();
    }

    /**
     * A smaller text of {@code position}, a position a sink committed for one of this source's
     * streams, from which a run reads exactly what it would read from {@code position}; null when
     * the position's entries are not this source's. A sink that keeps the union of every continuous
     * commit's positions in one place ({@link io.skippr.core.record.ReadPositions#compact}) calls
     * it so that place stays small.
     */
    default String compact(String position) {
        return null;
    }

    /**
     * What the source of {@code context} keeps on its server for the pipeline between runs (a
     * replication slot), to warn of and to drop with {@code skipprd reset}; empty for a source that
     * keeps nothing there. Connects to nothing.
     */
    default java.util.Optional<SourceServerState> serverState(SourceContext context) {
        return java.util.Optional.empty();
    }
}
