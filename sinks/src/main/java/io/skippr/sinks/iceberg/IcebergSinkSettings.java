package io.skippr.sinks.iceberg;

import java.io.Serializable;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Where and how an Iceberg-family sink writes, fixed when the job is built.
 *
 * @param catalog opens the catalog the tables are in
 * @param namespace the Iceberg namespace of the tables
 * @param pipeline the pipeline's name
 * @param sink the data sink entry's name
 * @param run this job start's run number: one above the highest any table's history records for
 *     this pipeline and sink
 * @param bounded true for a {@code --once} run: one commit per table at the end, all or nothing
 * @param targetFileBytes roll data files at this size
 * @param compact rewrite small data files into larger ones after each commit
 * @param deadletterRun for a deadletter sink, the data run whose deadletters it takes: a bounded
 *     commit first removes the rows an earlier attempt of that data run committed; 0 for a data
 *     sink
 * @param merge write_mode merge: each commit upserts on the streams' primary keys (data files and
 *     equality deletes in one row delta, {@link MergeRows}) instead of appending
 */
public record IcebergSinkSettings(
        IcebergCatalogFactory catalog,
        String namespace,
        String pipeline,
        String sink,
        long run,
        boolean bounded,
        long targetFileBytes,
        boolean compact,
        long deadletterRun,
        boolean merge)
        implements Serializable {

    public IcebergSinkSettings(
            IcebergCatalogFactory catalog,
            String namespace,
            String pipeline,
            String sink,
            long run,
            boolean bounded,
            long targetFileBytes,
            boolean compact,
            long deadletterRun) {
        this(
                catalog,
                namespace,
                pipeline,
                sink,
                run,
                bounded,
                targetFileBytes,
                compact,
                deadletterRun,
                false);
    }

    public IcebergSinkSettings(
            IcebergCatalogFactory catalog,
            String namespace,
            String pipeline,
            String sink,
            long run,
            boolean bounded,
            long targetFileBytes,
            boolean compact) {
        this(catalog, namespace, pipeline, sink, run, bounded, targetFileBytes, compact, 0);
    }

    public Namespace icebergNamespace() {
        return Namespace.of(namespace);
    }

    public TableIdentifier table(String name) {
        return TableIdentifier.of(icebergNamespace(), name);
    }

    /** The same settings for another run number. */
    public IcebergSinkSettings withRun(long newRun) {
        return new IcebergSinkSettings(
                catalog,
                namespace,
                pipeline,
                sink,
                newRun,
                bounded,
                targetFileBytes,
                compact,
                deadletterRun,
                merge);
    }

    /** These settings for the deadletter sink of data run {@code dataRun}. */
    public IcebergSinkSettings deadletters(long dataRun) {
        return new IcebergSinkSettings(
                catalog,
                namespace,
                pipeline,
                sink,
                run,
                bounded,
                targetFileBytes,
                compact,
                dataRun,
                merge);
    }

    /** These settings with write_mode merge ({@code true}) or append. */
    public IcebergSinkSettings merging(boolean upsert) {
        return new IcebergSinkSettings(
                catalog,
                namespace,
                pipeline,
                sink,
                run,
                bounded,
                targetFileBytes,
                compact,
                deadletterRun,
                upsert);
    }
}
