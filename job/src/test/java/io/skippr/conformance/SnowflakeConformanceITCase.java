package io.skippr.conformance;

/** The Snowflake sink, against the fake Snowflake. */
class SnowflakeConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new SnowflakeFixture();
    }
}
