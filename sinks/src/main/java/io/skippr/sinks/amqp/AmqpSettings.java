package io.skippr.sinks.amqp;

import io.skippr.config.Secret;
import io.skippr.config.model.ResolvedSettings;
import java.io.Serializable;

/**
 * Where and how the AMQP sink publishes. Prints without the password ({@link Secret} does).
 *
 * @param password null for none
 * @param exchange the exchange messages are published to; empty for the default exchange
 * @param routingKey the routing key of every message; null for each row's stream name
 * @param tlsCaFile the PEM file of the CAs the broker's certificate is checked against; null for
 *     the CAs Java trusts
 */
public record AmqpSettings(
        String host,
        int port,
        String user,
        Secret password,
        String virtualHost,
        String exchange,
        String routingKey,
        boolean tls,
        String tlsCaFile)
        implements Serializable {

    public static final int PORT = 5672;
    public static final int TLS_PORT = 5671;

    public static AmqpSettings of(ResolvedSettings settings) {
        boolean tls = settings.bool("tls");
        return new AmqpSettings(
                settings.requireString("host"),
                settings.integer("port").orElse((long) (tls ? TLS_PORT : PORT)).intValue(),
                settings.string("user").orElse("guest"),
                settings.secret("password").orElse(null),
                settings.string("virtual_host").orElse("/"),
                settings.string("exchange").orElse(""),
                settings.string("routing_key").orElse(null),
                tls,
                settings.string("tls_ca_file").orElse(null));
    }

    /**
     * {@code the broker at amqp://host:port (virtual host 'v', user 'u')}, {@code amqps://} with
     * TLS: how messages name it.
     */
    public String broker() {
        return "the broker at "
                + (tls ? "amqps://" : "amqp://")
                + host
                + ":"
                + port
                + " (virtual host '"
                + virtualHost
                + "', user '"
                + user
                + "')";
    }

    /** The exchange as messages name it: {@code 'orders'}, or {@code the default exchange}. */
    String exchangeName() {
        return exchange.isEmpty() ? "the default exchange" : "exchange '" + exchange + "'";
    }
}
