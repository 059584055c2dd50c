package io.skippr.conformance;

/** The ClickHouse sink. */
class ClickHouseConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return new ClickHouseFixture();
    }
}
