package io.skippr.core.spi;

import io.skippr.config.model.ResolvedSettings;
import java.nio.file.Path;

/**
 * What a sink is built from.
 *
 * @param pipeline the pipeline's name
 * @param entry the sink entry's name in skippr.yml
 * @param settings the entry's resolved settings; null for the pipeline's own WAL store
 * @param bounded true for {@code --once} (batch execution)
 * @param stateDir the pipeline's state folder: WAL store, manifests, checkpoints
 * @param writeMode append, merge or replace
 * @param failPoint a failure to inject, for recovery tests; {@link FailPoint#NONE} in real runs
 * @param schemaSink the resolved settings of the schema sink the data sink links, or null
 * @param deadletterRun for a deadletter sink, the data sink's run whose deadletters it takes
 *     ({@link SkipprSink#nextRun}): a bounded commit replaces the deadletters an earlier attempt of
 *     that data run committed; 0 for any other sink
 * @param softDeletes the pipeline's {@code soft_deletes}: a delete marks the key's row instead of
 *     removing it
 */
public record SinkContext(
        String pipeline,
        String entry,
        ResolvedSettings settings,
        boolean bounded,
        Path stateDir,
        String writeMode,
        FailPoint failPoint,
        ResolvedSettings schemaSink,
        long deadletterRun,
        boolean softDeletes) {

    public SinkContext(
            String pipeline,
            String entry,
            ResolvedSettings settings,
            boolean bounded,
            Path stateDir,
            String writeMode,
            FailPoint failPoint,
            ResolvedSettings schemaSink,
            long deadletterRun) {
        this(
                pipeline,
                entry,
                settings,
                bounded,
                stateDir,
                writeMode,
                failPoint,
                schemaSink,
                deadletterRun,
                false);
    }

    /** This context with the pipeline's {@code soft_deletes}. */
    public SinkContext withSoftDeletes(boolean soft) {
        return new SinkContext(
                pipeline,
                entry,
                settings,
                bounded,
                stateDir,
                writeMode,
                failPoint,
                schemaSink,
                deadletterRun,
                soft);
    }

    public SinkContext(
            String pipeline,
            String entry,
            ResolvedSettings settings,
            boolean bounded,
            Path stateDir,
            String writeMode,
            FailPoint failPoint,
            ResolvedSettings schemaSink) {
        this(pipeline, entry, settings, bounded, stateDir, writeMode, failPoint, schemaSink, 0);
    }

    public SinkContext(
            String pipeline,
            String entry,
            ResolvedSettings settings,
            boolean bounded,
            Path stateDir,
            String writeMode,
            FailPoint failPoint) {
        this(pipeline, entry, settings, bounded, stateDir, writeMode, failPoint, null, 0);
    }

    public SinkContext(
            String pipeline,
            String entry,
            ResolvedSettings settings,
            boolean bounded,
            Path stateDir,
            String writeMode) {
        this(pipeline, entry, settings, bounded, stateDir, writeMode, FailPoint.NONE, null, 0);
    }

    /** This context for the deadletter sink of data run {@code dataRun}. */
    public SinkContext deadletters(long dataRun) {
        return new SinkContext(
                pipeline,
                entry,
                settings,
                bounded,
                stateDir,
                writeMode,
                failPoint,
                schemaSink,
                dataRun);
    }

    /** Whether this is a deadletter sink's context ({@link #deadletterRun} above 0). */
    public boolean deadletterSink() {
        return deadletterRun > 0;
    }

    /**
     * Refuses any write mode but append, for destinations that only append (files, queues,
     * ClickHouse): a configuration error naming the pipeline.
     */
    public void requireAppend(String kind) {
        requireAppendOrMerge(kind, false);
    }

    /**
     * Refuses any write mode but append and, where {@code merges}, merge (table formats, which
     * merge with equality deletes but cannot replace): a configuration error naming the pipeline.
     *
     * @return whether the pipeline writes with merge
     */
    public boolean requireAppendOrMerge(String kind, boolean merges) {
        if (writeMode == null || "append".equals(writeMode)) {
            return false;
        }
        if (merges && "merge".equals(writeMode)) {
            return true;
        }
        throw io.skippr.config.ConfigException.of(
                "skippr.yml",
                "pipelines."
                        + pipeline
                        + ".write_mode: "
                        + kind
                        + (merges ? " sinks append or merge" : " sinks only append")
                        + "; write_mode "
                        + writeMode
                        + " needs a SQL destination such as Postgres or DuckDB");
    }
}
