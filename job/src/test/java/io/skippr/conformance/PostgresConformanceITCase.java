package io.skippr.conformance;

/** The PostgreSQL sink. */
class PostgresConformanceITCase extends MergingSinkConformanceKit
        implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return new PostgresFixture();
    }
}
