package io.skippr.sinks.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Return;
import com.rabbitmq.client.ReturnListener;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The messages the broker returned because no queue took them (they are published {@code
 * mandatory}): the first one makes the writer fail, naming the exchange and routing key, instead of
 * the broker dropping it. The broker sends a message's return before its confirm, so once the
 * confirms are in, every return is here.
 */
final class UnroutedMessages implements ReturnListener {
    private final AmqpSettings settings;
    private final AtomicLong count = new AtomicLong();
    private volatile String first;

    UnroutedMessages(AmqpSettings settings) {
        this.settings = settings;
    }

    @Override
    public void handleReturn(
            int replyCode,
            String replyText,
            String exchange,
            String routingKey,
            AMQP.BasicProperties properties,
            byte[] body) {
        count.incrementAndGet();
        if (first == null) {
            first =
                    describe(
                            new Return(
                                    replyCode, replyText, exchange, routingKey, properties, body));
        }
    }

    /** Fails when the broker returned a message. */
    void check() {
        String message = first;
        if (message != null) {
            throw new AmqpException(
                    message
                            + " ("
                            + count.get()
                            + " message(s) returned so far); the run fails rather than lose"
                            + " them: bind a queue that takes them, or set exchange and"
                            + " routing_key");
        }
    }

    private String describe(Return returned) {
        String key = returned.getRoutingKey();
        String where =
                returned.getExchange().isEmpty()
                        ? "the default exchange has no queue named '" + key + "'"
                        : "exchange '"
                                + returned.getExchange()
                                + "' has no queue bound for routing key '"
                                + key
                                + "'";
        Object stream =
                returned.getProperties().getHeaders() == null
                        ? null
                        : returned.getProperties().getHeaders().get(AmqpMessage.STREAM);
        return settings.broker()
                + " could not route a message to any queue ("
                + returned.getReplyCode()
                + " "
                + returned.getReplyText()
                + "): "
                + where
                + " (stream "
                + stream
                + ", _skippr_id "
                + returned.getProperties().getMessageId()
                + ")";
    }
}
