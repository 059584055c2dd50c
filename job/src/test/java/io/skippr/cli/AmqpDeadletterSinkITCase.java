package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.skippr.job.TestEnv;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AMQP as a pipeline's deadletter sink, through {@code skipprd sync --once} against the RabbitMQ
 * that {@code scripts/test} starts: each deadletter is one message of the stream {@code
 * skippr_deadletters}, persistent, with its {@code _skippr_id} as message id; the data sink
 * (LocalFile) commits its positions only after the broker confirmed them, and a rerun over the same
 * files then reads nothing and publishes nothing.
 */
class AmqpDeadletterSinkITCase {
    @TempDir Path dir;

    private static String env(String name) {
        return TestEnv.require(name, "the RabbitMQ broker that scripts/test starts");
    }

    @Test
    void eachDeadletterIsOneMessageOfItsOwnStreamAndARerunPublishesNoneAgain() throws Exception {
        String name =
                "skippr_dl_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(env("SKIPPR_TEST_AMQP_HOST"));
        factory.setPort(Integer.parseInt(env("SKIPPR_TEST_AMQP_PORT")));
        factory.setUsername(env("SKIPPR_TEST_AMQP_USER"));
        factory.setPassword(env("SKIPPR_TEST_AMQP_PASSWORD"));
        factory.setVirtualHost(env("SKIPPR_TEST_AMQP_VHOST"));
        try (Connection connection = factory.newConnection("AmqpDeadletterSinkITCase")) {
            Channel channel = connection.createChannel();
            channel.exchangeDeclare(name, "topic", false, true, null);
            channel.queueDeclare(name, false, false, true, null);
            channel.queueBind(name, name, "skippr_deadletters");

            Files.createDirectories(dir.resolve("in"));
            Files.writeString(
                    dir.resolve("in/orders.jsonl"),
                    "{\"id\": 1}\n{not json\n{\"id\": 2}\n[3]\n{\"id\": 4}\n");
            Files.writeString(
                    dir.resolve("skippr.yml"),
                    "pipelines:\n  p:\n    data_source: data_sources.files\n"
                            + "    data_sink: data_sinks.out\n"
                            + "    deadletter_sink: deadletter_sinks.rejects\n"
                            + "data_sources:\n  files:\n    LocalFile:\n"
                            + "      path: in/*.jsonl\n      stream: orders\n"
                            + "data_sinks:\n  out:\n    LocalFile:\n      path: out\n"
                            + "      format: jsonl\n"
                            + "deadletter_sinks:\n  rejects:\n    AMQP:\n      host: "
                            + env("SKIPPR_TEST_AMQP_HOST")
                            + "\n      port: "
                            + env("SKIPPR_TEST_AMQP_PORT")
                            + "\n      user: "
                            + env("SKIPPR_TEST_AMQP_USER")
                            + "\n      password: ${MQ_PASSWORD}\n      virtual_host: "
                            + env("SKIPPR_TEST_AMQP_VHOST")
                            + "\n      exchange: "
                            + name
                            + "\n");
            Map<String, String> vars =
                    Map.of(
                            "SKIPPR_STATE_DIR",
                            dir.resolve("state").toString(),
                            "MQ_PASSWORD",
                            env("SKIPPR_TEST_AMQP_PASSWORD"));
            String[] sync = {"sync", "--pipeline", "p", "--once"};

            CliRun first = CliRun.run(dir, vars, sync);
            assertThat(first.exitCode()).as(first.all()).isZero();
            List<GetResponse> published = drain(channel, name);
            assertThat(published).hasSize(2);
            ObjectMapper json = new ObjectMapper();
            Map<String, String> idByPayload = new HashMap<>();
            for (GetResponse message : published) {
                JsonNode letter =
                        json.readTree(new String(message.getBody(), StandardCharsets.UTF_8));
                assertThat(letter.path("pipeline").asText()).isEqualTo("p");
                assertThat(letter.path("stream").asText()).isEqualTo("orders");
                assertThat(letter.path("stage").asText()).isEqualTo("transform");
                assertThat(letter.path("error_class").asText()).isEqualTo("UndecodableRecord");
                assertThat(message.getProps().getMessageId())
                        .isEqualTo(letter.path("_skippr_id").asText());
                assertThat(message.getEnvelope().getRoutingKey()).isEqualTo("skippr_deadletters");
                assertThat(message.getProps().getHeaders().get("skippr_stream").toString())
                        .isEqualTo("skippr_deadletters");
                assertThat(message.getProps().getDeliveryMode()).isEqualTo(2);
                idByPayload.put(letter.path("payload").asText(), message.getProps().getMessageId());
            }
            assertThat(idByPayload).containsOnlyKeys("{not json", "[3]");

            CliRun rerun = CliRun.run(dir, vars, sync);
            assertThat(rerun.exitCode()).as(rerun.all()).isZero();
            assertThat(drain(channel, name)).as("deadletters published by the rerun").isEmpty();
        }
    }

    private static List<GetResponse> drain(Channel channel, String queue) throws Exception {
        List<GetResponse> got = new ArrayList<>();
        for (GetResponse r = channel.basicGet(queue, true);
                r != null;
                r = channel.basicGet(queue, true)) {
            got.add(r);
        }
        return got;
    }
}
