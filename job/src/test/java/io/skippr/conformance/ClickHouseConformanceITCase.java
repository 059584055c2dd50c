package io.skippr.conformance;

/** The ClickHouse sink. */
class ClickHouseConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new ClickHouseFixture();
    }
}
