package io.skippr.sinks.amqp;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.sinks.bounded.BoundedSinkTopology;
import io.skippr.sinks.deadletters.KeepsDeadletters;
import io.skippr.sinks.deadletters.KeptDeadletters;
import java.io.IOException;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The AMQP data sink: each row a persistent JSON message, published {@code mandatory} with
 * publisher confirms awaited at every checkpoint; at-least-once, with {@code _skippr_id} as the
 * message id so consumers can drop copies.
 */
public final class AmqpSinkFactory implements SinkFactory, KeepsDeadletters {
    private static final Logger LOG = LoggerFactory.getLogger(AmqpSinkFactory.class);

    @Override
    public String kind() {
        return "AMQP";
    }

    /** None: it commits no positions (at-least-once), so a bounded run reads from the start. */
    @Override
    public Map<String, String> committedPositions(SinkContext context) {
        return Map.of();
    }

    @Override
    public SkipprSink create(SinkContext context) {
        context.requireAppend("AMQP");
        return sink(
                AmqpSettings.of(context.settings()),
                context.pipeline(),
                context.failPoint(),
                context.bounded());
    }

    /**
     * Checks that the broker answers and takes the login, and that the exchange exists, then
     * returns the sink; so a wrong host, password, virtual host or exchange fails before the job
     * starts. It declares nothing: exchanges, queues and bindings are the user's.
     */
    static SkipprSink sink(
            AmqpSettings settings, String pipeline, FailPoint failPoint, boolean bounded) {
        check(settings, pipeline);
        return new SkipprSink() {
            @Override
            public Map<String, String> committedPositions() {
                // At-least-once: a queue keeps no positions, so a bounded run reads its source
                // from the start and consumers drop copies by message id.
                return Map.of();
            }

            /**
             * Publishes as it writes, so it cannot wait for another sink; as a deadletter sink its
             * stream ends once the broker confirmed every message.
             */
            @Override
            public DataStream<Long> addTo(
                    DataStream<SourceRecord> records, String uid, DataStream<Long> commitAfter) {
                return BoundedSinkTopology.addTo(
                        records,
                        new AmqpSink(settings, pipeline, failPoint),
                        uid,
                        commitAfter,
                        bounded);
            }
        };
    }

    private static void check(AmqpSettings settings, String pipeline) {
        Connection connection = AmqpBroker.connect(settings, "skippr " + pipeline + " check");
        try {
            if (!settings.exchange().isEmpty()) {
                Channel channel = connection.createChannel();
                try {
                    channel.exchangeDeclarePassive(settings.exchange());
                } catch (IOException e) {
                    if (e.getCause() instanceof ShutdownSignalException closed) {
                        throw new AmqpException(
                                settings.broker()
                                        + " has no exchange '"
                                        + settings.exchange()
                                        + "': "
                                        + AmqpBroker.reason(closed)
                                        + "; declare it, or leave exchange out to publish through"
                                        + " the default exchange",
                                e);
                    }
                    throw e;
                }
            }
            Object version = connection.getServerProperties().get("version");
            LOG.info(
                    "AMQP broker {} at {}, publishing to {}",
                    version,
                    settings.broker(),
                    settings.exchangeName());
        } catch (IOException e) {
            throw new AmqpException("Cannot use " + settings.broker() + ": " + e, e);
        } finally {
            try {
                connection.close(AmqpBroker.CONNECT_TIMEOUT_MS);
            } catch (IOException | ShutdownSignalException e) {
                // already closed
            }
        }
    }

    @Override
    public KeptDeadletters deadletters(SinkContext context) {
        return new KeptDeadletters.NotReadBack(
                "publishes each deadletter as a message; the queues that receive them belong to"
                        + " their consumers, and reading them would take the messages away from"
                        + " them, so skipprd does not read them back");
    }
}
