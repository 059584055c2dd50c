package io.skippr.conformance;

/** The GCS sink (Parquet, its default) on Skippr's fake of the GCS JSON API. */
class GcsConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new GcsFixture("parquet");
    }
}
