package io.skippr.conformance;

/** The Databricks sink, against the fake Databricks. */
class DatabricksConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new DatabricksFixture();
    }
}
