package io.skippr.conformance;

/** The DuckDB sink. */
class DuckDbConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new DuckDbFixture();
    }
}
