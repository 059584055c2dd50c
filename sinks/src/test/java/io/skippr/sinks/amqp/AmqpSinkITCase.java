package io.skippr.sinks.amqp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.skippr.config.Secret;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The AMQP sink's writer against the real RabbitMQ that {@code scripts/test} starts (Debian's
 * 3.10), read back with the client: how a message looks, and how an unroutable or refused message,
 * a missing exchange, a wrong login or a wrong CA fail. The conformance kit ({@code
 * AmqpConformanceITCase}) runs the sink in Flink jobs.
 */
class AmqpSinkITCase {
    private static final String RUN = Long.toHexString(ThreadLocalRandom.current().nextLong());
    private static final StreamSchema ORDERS =
            new StreamSchema(
                    "it_orders_" + RUN,
                    List.of(
                            Column.of("id", DataType.INT64),
                            Column.of("amount", DataType.decimal(10, 2)),
                            Column.of("note", DataType.STRING)),
                    List.of("id"));

    private static Connection admin;
    private static Channel channel;

    private static String env(String name) {
        String value = System.getenv(name);
        assertThat(value)
                .as(
                        name
                                + " is not set: run the tests with scripts/test, which starts"
                                + " RabbitMQ (or `source scripts/lib/rabbitmq.sh && mq_install &&"
                                + " mq_start` first)")
                .isNotBlank();
        return value;
    }

    private static AmqpSettings settings() {
        return new AmqpSettings(
                env("SKIPPR_TEST_AMQP_HOST"),
                Integer.parseInt(env("SKIPPR_TEST_AMQP_PORT")),
                env("SKIPPR_TEST_AMQP_USER"),
                new Secret(env("SKIPPR_TEST_AMQP_PASSWORD")),
                env("SKIPPR_TEST_AMQP_VHOST"),
                "",
                null,
                false,
                null);
    }

    private static AmqpSettings withExchange(AmqpSettings s, String exchange) {
        return new AmqpSettings(
                s.host(),
                s.port(),
                s.user(),
                s.password(),
                s.virtualHost(),
                exchange,
                s.routingKey(),
                s.tls(),
                s.tlsCaFile());
    }

    private static AmqpSettings as(AmqpSettings s, String user, String password) {
        return new AmqpSettings(
                s.host(),
                s.port(),
                user,
                new Secret(password),
                s.virtualHost(),
                s.exchange(),
                s.routingKey(),
                s.tls(),
                s.tlsCaFile());
    }

    private static AmqpSettings tls(String caFile) {
        AmqpSettings s = settings();
        return new AmqpSettings(
                s.host(),
                Integer.parseInt(env("SKIPPR_TEST_AMQP_TLS_PORT")),
                s.user(),
                s.password(),
                s.virtualHost(),
                s.exchange(),
                s.routingKey(),
                true,
                caFile);
    }

    @BeforeAll
    static void broker() throws Exception {
        admin = AmqpBroker.connect(settings(), "skippr AmqpSinkITCase");
        channel = admin.createChannel();
        channel.queueDeclare(ORDERS.stream(), true, false, false, null);
    }

    @AfterAll
    static void close() throws Exception {
        if (admin != null) {
            Channel c = admin.createChannel();
            c.queueDelete(ORDERS.stream());
            admin.close();
        }
    }

    private static Row row(long id, String amount, String note) {
        String position = ORDERS.stream() + "|" + id;
        return new Row(
                ORDERS.stream(),
                ORDERS.version(),
                Operation.INSERT,
                new Object[] {id, new BigDecimal(amount), note},
                position,
                SkipprId.of(ORDERS.stream(), position),
                1_767_225_600_123_456L);
    }

    private static AmqpSink.Writer writer(AmqpSettings settings) throws Exception {
        return new AmqpSink.Writer(
                settings, "p", AmqpBroker.connect(settings, "it"), FailPoint.NONE.trigger());
    }

    private static List<GetResponse> drain(String queue) throws Exception {
        List<GetResponse> got = new ArrayList<>();
        for (GetResponse r = channel.basicGet(queue, true);
                r != null;
                r = channel.basicGet(queue, true)) {
            got.add(r);
        }
        return got;
    }

    /**
     * Passes when each row is one persistent JSON message in the queue named after its stream (the
     * default exchange), with {@code _skippr_id} as its message id and the stream, schema version,
     * position and pipeline in its headers, once the flush returned.
     */
    @Test
    void eachRowIsOnePersistentJsonMessageWithItsIdAndHeaders() throws Exception {
        try (AmqpSink.Writer writer = writer(settings())) {
            writer.write(new SchemaChange(ORDERS), null);
            writer.write(row(1, "12.50", "first \"one\""), null);
            writer.write(row(2, "0.05", null), null);
            writer.flush(false);
        }
        List<GetResponse> got = drain(ORDERS.stream());
        assertThat(got).hasSize(2);
        AMQP.BasicProperties p = got.get(0).getProps();
        Row first = row(1, "12.50", "first \"one\"");
        assertThat(new String(got.get(0).getBody(), StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"id\":1,\"amount\":12.50,\"note\":\"first \\\"one\\\"\",\"_skippr_id\":\""
                                + first.id()
                                + "\",\"_skippr_synced_at\":\"2026-01-01T00:00:00.123456Z\"}");
        assertThat(new String(got.get(1).getBody(), StandardCharsets.UTF_8))
                .startsWith("{\"id\":2,\"amount\":0.05,\"note\":null,");
        assertThat(p.getMessageId()).isEqualTo(first.id()).matches("[0-9a-f]{32}");
        assertThat(p.getDeliveryMode()).isEqualTo(2);
        assertThat(p.getContentType()).isEqualTo("application/json");
        assertThat(p.getContentEncoding()).isEqualTo("utf-8");
        assertThat(p.getAppId()).isEqualTo("skippr");
        assertThat(p.getTimestamp().getTime()).isEqualTo(1_767_225_600_000L);
        Map<String, Object> headers = p.getHeaders();
        assertThat(String.valueOf(headers.get("skippr_stream"))).isEqualTo(ORDERS.stream());
        assertThat(headers.get("skippr_schema_version")).isEqualTo(ORDERS.version());
        assertThat(String.valueOf(headers.get("skippr_position")))
                .isEqualTo(ORDERS.stream() + "|1");
        assertThat(String.valueOf(headers.get("skippr_pipeline"))).isEqualTo("p");
        assertThat(got.get(0).getEnvelope().getRoutingKey()).isEqualTo(ORDERS.stream());
    }

    /**
     * Passes when a message no queue takes (published {@code mandatory}) fails the flush, naming
     * the exchange, the routing key and the row, instead of being dropped by the broker.
     */
    @Test
    void aMessageNoQueueTakesFailsTheFlush() throws Exception {
        StreamSchema lost = new StreamSchema("it_nowhere_" + RUN, ORDERS.columns(), List.of());
        Row row =
                new Row(
                        lost.stream(),
                        lost.version(),
                        Operation.INSERT,
                        new Object[] {7L, BigDecimal.ONE, "x"},
                        lost.stream() + "|7",
                        "0123456789abcdef0123456789abcdef",
                        1L);
        AmqpSettings settings = settings();
        try (AmqpSink.Writer writer = writer(settings)) {
            writer.write(new SchemaChange(lost), null);
            assertThatThrownBy(
                            () -> {
                                writer.write(row, null); // fails already when the return is in
                                writer.flush(false);
                            })
                    .isInstanceOf(AmqpException.class)
                    .hasMessage(
                            settings.broker()
                                    + " could not route a message to any queue (312 NO_ROUTE):"
                                    + " the default exchange has no queue named '"
                                    + lost.stream()
                                    + "' (stream "
                                    + lost.stream()
                                    + ", _skippr_id 0123456789abcdef0123456789abcdef) (1"
                                    + " message(s) returned so far); the run fails rather than"
                                    + " lose them: bind a queue that takes them, or set exchange"
                                    + " and routing_key");
        }

        String exchange = "it_unbound_" + RUN;
        channel.exchangeDeclare(exchange, "direct", false, true, null);
        try (AmqpSink.Writer writer = writer(withExchange(settings, exchange))) {
            writer.write(new SchemaChange(lost), null);
            assertThatThrownBy(
                            () -> {
                                writer.write(row, null); // fails already when the return is in
                                writer.flush(true);
                            })
                    .isInstanceOf(AmqpException.class)
                    .hasMessageContaining(
                            "(312 NO_ROUTE): exchange '"
                                    + exchange
                                    + "' has no queue bound for routing key '"
                                    + lost.stream()
                                    + "'");
        } finally {
            channel.exchangeDelete(exchange);
        }
    }

    /**
     * Passes when a message the broker refuses (a queue at its length limit with overflow {@code
     * reject-publish} nacks it) fails the flush: the writer really waits for the confirms.
     */
    @Test
    void aMessageTheBrokerRefusesFailsTheFlush() throws Exception {
        StreamSchema full = new StreamSchema("it_full_" + RUN, ORDERS.columns(), List.of());
        channel.queueDeclare(
                full.stream(),
                false,
                false,
                true,
                Map.of("x-max-length", 1, "x-overflow", "reject-publish"));
        AmqpSettings settings = settings();
        try (AmqpSink.Writer writer = writer(settings)) {
            writer.write(new SchemaChange(full), null);
            for (long id = 1; id <= 3; id++) {
                writer.write(
                        new Row(
                                full.stream(),
                                full.version(),
                                Operation.INSERT,
                                new Object[] {id, BigDecimal.ONE, "x"},
                                full.stream() + "|" + id,
                                SkipprId.of(full.stream(), full.stream() + "|" + id),
                                1L),
                        null);
            }
            assertThatThrownBy(() -> writer.flush(false))
                    .isInstanceOf(AmqpException.class)
                    .hasMessage(
                            settings.broker()
                                    + " refused (basic.nack) messages published to the default"
                                    + " exchange: a queue at its length limit with overflow"
                                    + " reject-publish, or an error of the broker's; the run fails"
                                    + " rather than lose them");
        } finally {
            channel.queueDelete(full.stream());
        }
    }

    /** Passes when a missing exchange fails before the job starts, with the broker's words. */
    @Test
    void aMissingExchangeFailsBeforeTheJobStarts() {
        AmqpSettings settings = withExchange(settings(), "no_such_exchange");
        assertThatThrownBy(() -> AmqpSinkFactory.sink(settings, "p", FailPoint.NONE, true))
                .isInstanceOf(AmqpException.class)
                .hasMessage(
                        settings.broker()
                                + " has no exchange 'no_such_exchange': NOT_FOUND - no exchange"
                                + " 'no_such_exchange' in vhost '"
                                + settings.virtualHost()
                                + "' (404); declare it, or leave exchange out to publish through"
                                + " the default exchange");
    }

    /** Passes when a wrong password fails before the job starts, never showing the password. */
    @Test
    void aWrongPasswordFailsBeforeTheJobStartsWithoutShowingIt() {
        AmqpSettings settings = as(settings(), env("SKIPPR_TEST_AMQP_USER"), "not-the-password");
        assertThatThrownBy(() -> AmqpSinkFactory.sink(settings, "p", FailPoint.NONE, true))
                .isInstanceOf(AmqpException.class)
                .hasMessageStartingWith(
                        settings.broker() + " refused the login: check user and password (")
                .hasMessageNotContaining("not-the-password");
    }

    /** Passes when a virtual host that does not exist fails before the job starts. */
    @Test
    void aMissingVirtualHostFailsBeforeTheJobStarts() {
        AmqpSettings s = settings();
        AmqpSettings settings =
                new AmqpSettings(
                        s.host(),
                        s.port(),
                        s.user(),
                        s.password(),
                        "no_such_vhost",
                        "",
                        null,
                        false,
                        null);
        assertThatThrownBy(() -> AmqpSinkFactory.sink(settings, "p", FailPoint.NONE, true))
                .isInstanceOf(AmqpException.class)
                .hasMessage(
                        settings.broker()
                                + " closed the connection: NOT_ALLOWED - vhost no_such_vhost not"
                                + " found (530)");
    }

    /**
     * Passes when a user who may only write (no configure, no read permission: what the docs'
     * permissions section asks for) passes the sink's checks, the exchange's included, and
     * publishes through a topic exchange to the queue bound to it.
     */
    @Test
    void aUserWhoMayOnlyWritePublishesThroughAnExchange() throws Exception {
        String exchange = "it_topic_" + RUN;
        String queue = "it_topic_queue_" + RUN;
        channel.exchangeDeclare(exchange, "topic", false, false, null);
        channel.queueDeclare(queue, false, false, true, null);
        channel.queueBind(queue, exchange, "#");
        try {
            AmqpSettings settings =
                    withExchange(
                            as(
                                    settings(),
                                    env("SKIPPR_TEST_AMQP_WRITER"),
                                    env("SKIPPR_TEST_AMQP_WRITER_PASSWORD")),
                            exchange);
            AmqpSinkFactory.sink(settings, "p", FailPoint.NONE, true);
            try (AmqpSink.Writer writer = writer(settings)) {
                writer.write(new SchemaChange(ORDERS), null);
                writer.write(row(4, "4.00", "through a topic exchange"), null);
                writer.flush(true);
            }
            List<GetResponse> got = drain(queue);
            assertThat(got).hasSize(1);
            assertThat(got.get(0).getEnvelope().getExchange()).isEqualTo(exchange);
            assertThat(got.get(0).getEnvelope().getRoutingKey()).isEqualTo(ORDERS.stream());
            assertThat(got.get(0).getProps().getMessageId()).isEqualTo(row(4, "4.00", "").id());
        } finally {
            channel.queueDelete(queue);
            channel.exchangeDelete(exchange);
        }
    }

    /**
     * Passes when a user who may not write to the virtual host (only read, as in the docs'
     * permissions section) fails the run with the broker's refusal.
     */
    @Test
    void aUserWithoutWritePermissionFailsWithTheBrokersRefusal() throws Exception {
        AmqpSettings settings =
                as(
                        settings(),
                        env("SKIPPR_TEST_AMQP_READER"),
                        env("SKIPPR_TEST_AMQP_READER_PASSWORD"));
        AmqpSinkFactory.sink(settings, "p", FailPoint.NONE, true); // the login is fine
        try (AmqpSink.Writer writer = writer(settings)) {
            assertThatThrownBy(
                            () -> {
                                writer.write(new SchemaChange(ORDERS), null);
                                writer.write(row(1, "1.00", "x"), null);
                                writer.flush(false);
                            })
                    .isInstanceOf(AmqpException.class)
                    .hasMessage(
                            settings.broker()
                                    + " closed the channel while the default exchange was published"
                                    + " to: ACCESS_REFUSED - access to exchange 'amq.default' in"
                                    + " vhost '"
                                    + settings.virtualHost()
                                    + "' refused for user '"
                                    + settings.user()
                                    + "' (403)");
        }
        assertThat(drain(ORDERS.stream())).isEmpty();
    }

    /**
     * Passes when TLS checks the broker's certificate against {@code tls_ca_file}: the CA that
     * signed it connects, an unrelated CA is refused with a message that says so.
     */
    @Test
    void tlsChecksTheBrokersCertificateAgainstTheCaFile() throws Exception {
        try (AmqpSink.Writer writer = writer(tls(env("SKIPPR_TEST_AMQP_CA")))) {
            writer.write(new SchemaChange(ORDERS), null);
            writer.write(row(3, "3.00", "over tls"), null);
            writer.flush(false);
        }
        List<GetResponse> got = drain(ORDERS.stream());
        assertThat(got).hasSize(1);
        assertThat(got.get(0).getProps().getHeaders().get("skippr_position").toString())
                .isEqualTo(ORDERS.stream() + "|3");

        AmqpSettings other = tls(env("SKIPPR_TEST_AMQP_OTHER_CA"));
        assertThatThrownBy(() -> AmqpSinkFactory.sink(other, "p", FailPoint.NONE, true))
                .isInstanceOf(AmqpException.class)
                .hasMessageStartingWith("The TLS handshake with " + other.broker() + " failed: ")
                .hasMessageEndingWith(
                        "; its certificate is not signed by the CA in tls_ca_file ("
                                + env("SKIPPR_TEST_AMQP_OTHER_CA")
                                + ")");
    }
}
