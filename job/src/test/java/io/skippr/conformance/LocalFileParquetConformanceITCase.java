package io.skippr.conformance;

/** The LocalFile sink, Parquet. */
class LocalFileParquetConformanceITCase extends SinkConformanceKit
        implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return new LocalFileFixture("parquet");
    }
}
