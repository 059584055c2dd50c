package io.skippr.conformance;

/** The AMQP sink. */
class AmqpConformanceITCase extends SinkConformanceKit implements RescaledSinkConformance {
    @Override
    protected SinkFixture fixture() throws Exception {
        return new AmqpFixture();
    }
}
