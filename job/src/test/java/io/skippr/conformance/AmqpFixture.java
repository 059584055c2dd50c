package io.skippr.conformance;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.skippr.config.catalog.Guarantee;
import io.skippr.core.record.DataType;
import io.skippr.job.TestEnv;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The AMQP sink against the RabbitMQ that {@code scripts/test} starts, read from the queue: the
 * sink publishes to a topic exchange of the fixture's own, which a queue takes everything from
 * ({@code #}), as a consumer of several streams would set it up. Reading a queue takes its
 * messages, so the fixture keeps every message it took, and a row is each message a test's runs
 * published, copies included. Each message must be as docs/connectors/amqp.md says: persistent,
 * JSON, with {@code _skippr_id} as its message id and the stream (its routing key), schema version
 * and source position in its headers; one that is not fails the read.
 */
final class AmqpFixture implements SinkFixture {
    private static String env(String name) {
        return TestEnv.require(name, "the RabbitMQ broker that scripts/test starts");
    }

    private final String name =
            "skippr_kit_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
    private final Connection connection;
    private final Channel channel;
    private final List<Map<String, Object>> taken = new ArrayList<>();
    private final List<String> streams = new ArrayList<>();

    AmqpFixture() throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(env("SKIPPR_TEST_AMQP_HOST"));
        factory.setPort(Integer.parseInt(env("SKIPPR_TEST_AMQP_PORT")));
        factory.setUsername(env("SKIPPR_TEST_AMQP_USER"));
        factory.setPassword(env("SKIPPR_TEST_AMQP_PASSWORD"));
        factory.setVirtualHost(env("SKIPPR_TEST_AMQP_VHOST"));
        factory.setAutomaticRecoveryEnabled(false);
        connection = factory.newConnection("skippr conformance kit");
        channel = connection.createChannel();
        channel.exchangeDeclare(name, "topic", true);
        channel.queueDeclare(name, true, false, false, null);
        channel.queueBind(name, name, "#");
    }

    @Override
    public String kind() {
        return "AMQP";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.AT_LEAST_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    AMQP:\n      host: "
                + env("SKIPPR_TEST_AMQP_HOST")
                + "\n      port: "
                + env("SKIPPR_TEST_AMQP_PORT")
                + "\n      user: "
                + env("SKIPPR_TEST_AMQP_USER")
                + "\n      password: ${KIT_AMQP_PASSWORD}\n      virtual_host: "
                + env("SKIPPR_TEST_AMQP_VHOST")
                + "\n      exchange: "
                + name
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_AMQP_PASSWORD", env("SKIPPR_TEST_AMQP_PASSWORD"));
    }

    /** Every message the queue held for {@code stream}, taken now or by an earlier read. */
    @Override
    public synchronized List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        for (GetResponse got = channel.basicGet(name, true);
                got != null;
                got = channel.basicGet(name, true)) {
            take(got);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < taken.size(); i++) {
            if (streams.get(i).equals(stream)) {
                rows.add(taken.get(i));
            }
        }
        return rows;
    }

    private void take(GetResponse got) throws IOException {
        AMQP.BasicProperties p = got.getProps();
        String where = "message " + (taken.size() + 1) + " of queue " + name;
        Map<String, Object> row =
                JsonLines.readObject(new String(got.getBody(), StandardCharsets.UTF_8), where);
        Map<String, Object> headers = p.getHeaders() == null ? Map.of() : p.getHeaders();
        String stream = String.valueOf(headers.get("skippr_stream"));
        check(where, "its message id is its _skippr_id", row.get("_skippr_id"), p.getMessageId());
        check(where, "it is persistent", 2, p.getDeliveryMode());
        check(where, "its content type", "application/json", p.getContentType());
        check(where, "its routing key is its stream", stream, got.getEnvelope().getRoutingKey());
        if (!(headers.get("skippr_schema_version") instanceof Long)
                || headers.get("skippr_position") == null) {
            throw new IOException(where + ": no schema version or position in " + headers);
        }
        taken.add(row);
        streams.add(stream);
    }

    private static void check(String where, String what, Object want, Object got)
            throws IOException {
        if (!String.valueOf(want).equals(String.valueOf(got))) {
            throw new IOException(where + ": " + what + ": expected " + want + ", got " + got);
        }
    }

    /** Messages carry the stream's name as it is: there are no tables. */
    @Override
    public String table(String stream) {
        return stream;
    }

    /** JSON has no bytes: they are sent as base64 (docs/connectors/amqp.md). */
    @Override
    public String landed(DataType.Kind kind, String canonical) {
        if (kind == DataType.Kind.BYTES) {
            return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(canonical));
        }
        return canonical;
    }

    @Override
    public void close() throws Exception {
        try {
            channel.queueDelete(name);
            channel.exchangeDelete(name);
        } finally {
            connection.close();
        }
    }
}
