package io.skippr.conformance;

/** The DuckDB sink. */
class DuckDbConformanceITCase extends MergingSinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new DuckDbFixture();
    }
}
