package io.skippr.sinks.amqp;

import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ShutdownSignalException;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Publishes each row as one message ({@link AmqpMessage}) on a channel in confirm mode, {@code
 * mandatory}, at-least-once: at every checkpoint (and at the end of input) a writer waits until the
 * broker confirmed every message it published, so a checkpoint completes only once its messages are
 * in their queues (persistent messages on durable queues: on disk); a message the broker returned
 * (no queue took it) or refused fails the run. After a failure Flink restarts from the last
 * completed checkpoint and the rows published since are published again, with the same message id.
 */
final class AmqpSink implements Sink<SourceRecord> {
    private static final long serialVersionUID = 1L;

    /**
     * Messages a writer publishes before it waits for their confirms, which bounds what it has in
     * flight.
     */
    static final int MAX_UNCONFIRMED = 10_000;

    /** How long a writer waits for the broker's confirms (a resource alarm holds publishers). */
    static final long CONFIRM_TIMEOUT_MS = 300_000;

    /** The longest routing key AMQP 0-9-1 carries, in bytes of UTF-8. */
    static final int MAX_ROUTING_KEY = 255;

    private final AmqpSettings settings;
    private final String pipeline;
    private final FailPoint failPoint;

    AmqpSink(AmqpSettings settings, String pipeline, FailPoint failPoint) {
        this.settings = settings;
        this.pipeline = pipeline;
        this.failPoint = failPoint;
    }

    @Override
    public SinkWriter<SourceRecord> createWriter(WriterInitContext context) throws IOException {
        String name =
                "skippr " + pipeline + " writer " + context.getTaskInfo().getIndexOfThisSubtask();
        return new Writer(
                settings, pipeline, AmqpBroker.connect(settings, name), failPoint.trigger());
    }

    static final class Writer implements SinkWriter<SourceRecord> {
        private final AmqpSettings settings;
        private final String pipeline;
        private final Connection connection;
        private final Channel channel;
        private final UnroutedMessages unrouted;
        private final FailPoint.Trigger failPoint;
        private final Map<String, Map<Long, StreamSchema>> schemas = new HashMap<>();
        private final StringBuilder scratch = new StringBuilder(256);
        private long unconfirmed;

        Writer(
                AmqpSettings settings,
                String pipeline,
                Connection connection,
                FailPoint.Trigger failPoint)
                throws IOException {
            this.settings = settings;
            this.pipeline = pipeline;
            this.connection = connection;
            this.failPoint = failPoint;
            this.unrouted = new UnroutedMessages(settings);
            this.channel = connection.createChannel();
            channel.confirmSelect();
            channel.addReturnListener(unrouted);
        }

        @Override
        public void write(SourceRecord record, Context context)
                throws IOException, InterruptedException {
            if (record instanceof SchemaChange change) {
                routingKey(change.schema().stream()); // a key AMQP cannot carry fails here
                schemas.computeIfAbsent(change.stream(), s -> new HashMap<>())
                        .put(change.schema().version(), change.schema());
            } else if (record instanceof Row row) {
                StreamSchema schema =
                        schemas.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
                if (schema == null) {
                    throw new IOException("row of " + row.stream() + " before its schema");
                }
                publish(row, schema);
            }
        }

        private void publish(Row row, StreamSchema schema)
                throws IOException, InterruptedException {
            byte[] body = AmqpMessage.body(scratch, schema, row);
            try {
                channel.basicPublish(
                        settings.exchange(),
                        routingKey(row.stream()),
                        true,
                        AmqpMessage.properties(pipeline, row),
                        body);
            } catch (AlreadyClosedException e) {
                throw closed(e);
            }
            if (++unconfirmed >= MAX_UNCONFIRMED) {
                awaitConfirms();
            } else {
                unrouted.check(); // fail at the first return already in
            }
        }

        private String routingKey(String stream) {
            String key = settings.routingKey() != null ? settings.routingKey() : stream;
            int bytes = key.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > MAX_ROUTING_KEY) {
                throw new AmqpException(
                        "The routing key of stream "
                                + stream
                                + " is "
                                + bytes
                                + " bytes long, and AMQP carries at most "
                                + MAX_ROUTING_KEY
                                + ": set routing_key");
            }
            return key;
        }

        /** Waits until the broker confirmed every message published so far. */
        private void awaitConfirms() throws InterruptedException {
            if (unconfirmed == 0) {
                unrouted.check();
                return;
            }
            boolean acked;
            try {
                acked = channel.waitForConfirms(CONFIRM_TIMEOUT_MS);
            } catch (TimeoutException e) {
                throw new AmqpException(
                        settings.broker()
                                + " did not confirm "
                                + unconfirmed
                                + " published messages within "
                                + CONFIRM_TIMEOUT_MS / 1000
                                + " s (a memory or disk alarm holds publishers until it clears)",
                        e);
            } catch (ShutdownSignalException e) {
                throw closed(e);
            }
            unrouted.check();
            if (!acked) {
                throw new AmqpException(
                        settings.broker()
                                + " refused (basic.nack) messages published to "
                                + settings.exchangeName()
                                + ": a queue at its length limit with overflow reject-publish, or"
                                + " an error of the broker's; the run fails rather than lose them");
            }
            unconfirmed = 0;
        }

        private AmqpException closed(ShutdownSignalException e) {
            return new AmqpException(
                    settings.broker()
                            + " closed the channel while "
                            + settings.exchangeName()
                            + " was published to: "
                            + AmqpBroker.reason(e),
                    e);
        }

        /**
         * At every checkpoint and at the end of input: every message published is confirmed, as a
         * commit is for other sinks.
         */
        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            failPoint.reached(FailPoint.Stage.BEFORE_COMMIT);
            awaitConfirms();
            failPoint.reached(FailPoint.Stage.AFTER_COMMIT);
        }

        /** Messages not confirmed yet were never covered by a checkpoint: a restart sends them. */
        @Override
        public void close() {
            try {
                connection.close(AmqpBroker.CONNECT_TIMEOUT_MS);
            } catch (IOException | ShutdownSignalException e) {
                // already closed, by the broker or a lost connection
            }
        }
    }
}
