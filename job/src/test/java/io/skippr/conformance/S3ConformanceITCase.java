package io.skippr.conformance;

/** The S3 sink (Parquet) on S3Proxy. */
class S3ConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new S3Fixture("parquet");
    }
}
