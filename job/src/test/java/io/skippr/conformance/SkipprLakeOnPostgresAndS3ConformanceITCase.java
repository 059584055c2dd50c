package io.skippr.conformance;

/** SkipprLake with its catalog on PostgreSQL and its warehouse on S3Proxy. */
class SkipprLakeOnPostgresAndS3ConformanceITCase extends SinkConformanceKit
        implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return SkipprLakeFixture.postgresCatalogOnS3();
    }
}
