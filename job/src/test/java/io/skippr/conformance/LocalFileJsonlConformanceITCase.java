package io.skippr.conformance;

/** The LocalFile sink, JSON Lines. */
class LocalFileJsonlConformanceITCase extends SinkConformanceKit
        implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() {
        return new LocalFileFixture("jsonl");
    }
}
