package io.skippr.conformance;

/** The Athena sink (Parquet, daily partitions) on S3Proxy, its Glue schema sink on the fake. */
class AthenaConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new AthenaFixture();
    }
}
