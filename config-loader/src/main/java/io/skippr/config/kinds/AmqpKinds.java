package io.skippr.config.kinds;

import io.skippr.config.catalog.Field;
import io.skippr.config.catalog.Guarantee;
import io.skippr.config.catalog.KindProvider;
import io.skippr.config.catalog.KindSpec;
import java.util.List;

/** AMQP 0-9-1 brokers such as RabbitMQ. */
public final class AmqpKinds implements KindProvider {
    @Override
    public List<KindSpec> kinds() {
        return List.of(
                KindSpec.dataSink("AMQP", "AMQP 0-9-1 (RabbitMQ)", Guarantee.AT_LEAST_ONCE)
                        .description(
                                "Publishes each record as a persistent JSON message to an exchange,"
                                        + " with publisher confirms")
                        .fields(
                                Field.string("host", "Broker host name").required(),
                                Field.integer(
                                        "port", "Broker port (default: 5672, or 5671 with tls)"),
                                Field.string("user", "User to log in as").defaultsTo("guest"),
                                Field.string("password", "Password of the user").secret(),
                                Field.string("virtual_host", "Virtual host").defaultsTo("/"),
                                Field.string(
                                        "exchange",
                                        "Exchange to publish to (default: the"
                                                + " default exchange)"),
                                Field.string(
                                        "routing_key",
                                        "Routing key of each message (default: the stream name)"),
                                Field.bool(
                                                "tls",
                                                "Connect with TLS, checking the broker's"
                                                        + " certificate and host name")
                                        .defaultsTo(false),
                                Field.path(
                                        "tls_ca_file",
                                        "CA certificate file (PEM) the broker's certificate is"
                                                + " checked against, with tls (default: the CAs"
                                                + " Java trusts)"))
                        .build());
    }
}
