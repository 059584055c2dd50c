package io.skippr.conformance;

import org.junit.jupiter.api.Test;

/**
 * The rescaling test, for the destinations that implement this: one per family of sinks, about 8 s
 * each. What a restore at another parallelism redistributes is the state of a family's writer and
 * committer, which its members share (FileSinks: LocalFile, S3, AzureBlob, GCS, SFTP, Athena;
 * SqlSinks: Postgres, DuckDB; IcebergSinks: SkipprLake, AthenaIceberg); they differ in how a staged
 * file or row reaches the store, which the failure and kill tests cover for each. ClickHouse and
 * Stdout have no committer and run it too.
 */
interface RescaledSinkConformance {
    /** See {@link SinkConformanceKit#restoredAtAnotherParallelism}. */
    @Test
    default void aContinuousRunRestoredAtAnotherParallelismLosesAndRepeatsNothing()
            throws Exception {
        ((SinkConformanceKit) this).restoredAtAnotherParallelism();
    }
}
