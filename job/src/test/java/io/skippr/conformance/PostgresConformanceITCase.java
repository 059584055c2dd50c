package io.skippr.conformance;

/** The PostgreSQL sink. */
class PostgresConformanceITCase extends MergingSinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new PostgresFixture();
    }
}
