package io.skippr.conformance;

/** The BigQuery sink, against the fake BigQuery. */
class BigQueryConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new BigQueryFixture();
    }
}
