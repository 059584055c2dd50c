package io.skippr.conformance;

/** The Synapse sink, against the fake Synapse (TDS in front of the test PostgreSQL). */
class SynapseConformanceITCase extends SinkConformanceKit {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new SynapseFixture();
    }
}
