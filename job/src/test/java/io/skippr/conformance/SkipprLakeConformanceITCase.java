package io.skippr.conformance;

/** SkipprLake with its embedded catalog and a local warehouse. */
class SkipprLakeConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return SkipprLakeFixture.embedded();
    }
}
