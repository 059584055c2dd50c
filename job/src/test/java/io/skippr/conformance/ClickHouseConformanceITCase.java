package io.skippr.conformance;

/** The ClickHouse sink. */
@org.junit.jupiter.api.extension.ExtendWith(io.skippr.sinks.clickhouse.OneClassAtATime.class)
class ClickHouseConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return new ClickHouseFixture();
    }
}
