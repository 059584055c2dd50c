package io.skippr.conformance;

/** The Stdout sink. */
class StdoutConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() {
        return new StdoutFixture();
    }
}
