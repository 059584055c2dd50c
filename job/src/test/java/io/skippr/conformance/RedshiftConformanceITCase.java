package io.skippr.conformance;

/** The Redshift sink, against its twin. */
class RedshiftConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new RedshiftFixture();
    }
}
