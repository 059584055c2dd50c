package io.skippr.conformance;

/** The PostgreSQL sink. */
class PostgresConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new PostgresFixture();
    }
}
