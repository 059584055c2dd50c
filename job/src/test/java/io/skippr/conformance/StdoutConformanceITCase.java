package io.skippr.conformance;

/** The Stdout sink. */
class StdoutConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return new StdoutFixture();
    }
}
