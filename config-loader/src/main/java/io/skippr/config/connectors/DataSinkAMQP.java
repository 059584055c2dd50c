// Generated from the connector catalog by scripts/generate; do not edit.
package io.skippr.config.connectors;

import io.skippr.config.Connector;
import io.skippr.config.EnvRef;
import io.skippr.config.catalog.Role;

/** AMQP 0-9-1 (RabbitMQ) data sink. Publishes each record as a persistent JSON message to an exchange, with publisher confirms. */
public final class DataSinkAMQP extends Connector<DataSinkAMQP> {
    public DataSinkAMQP() {
        super(Role.DATA_SINK, "AMQP");
    }

    /** Broker host name. Required. */
    public DataSinkAMQP host(String value) {
        return set("host", value);
    }

    /** Broker host name. Required. From an environment variable. */
    public DataSinkAMQP host(EnvRef value) {
        return set("host", value);
    }

    /** Broker port (default: 5672, or 5671 with tls). */
    public DataSinkAMQP port(long value) {
        return set("port", value);
    }

    /** Broker port (default: 5672, or 5671 with tls). From an environment variable. */
    public DataSinkAMQP port(EnvRef value) {
        return set("port", value);
    }

    /** User to log in as. Default: guest. */
    public DataSinkAMQP user(String value) {
        return set("user", value);
    }

    /** User to log in as. Default: guest. From an environment variable. */
    public DataSinkAMQP user(EnvRef value) {
        return set("user", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. */
    public DataSinkAMQP password(String value) {
        return set("password", value);
    }

    /** Password of the user. Secret: prefer an EnvRef. From an environment variable. */
    public DataSinkAMQP password(EnvRef value) {
        return set("password", value);
    }

    /** Virtual host. Default: /. */
    public DataSinkAMQP virtualHost(String value) {
        return set("virtual_host", value);
    }

    /** Virtual host. Default: /. From an environment variable. */
    public DataSinkAMQP virtualHost(EnvRef value) {
        return set("virtual_host", value);
    }

    /** Exchange to publish to (default: the default exchange). */
    public DataSinkAMQP exchange(String value) {
        return set("exchange", value);
    }

    /** Exchange to publish to (default: the default exchange). From an environment variable. */
    public DataSinkAMQP exchange(EnvRef value) {
        return set("exchange", value);
    }

    /** Routing key of each message (default: the stream name). */
    public DataSinkAMQP routingKey(String value) {
        return set("routing_key", value);
    }

    /** Routing key of each message (default: the stream name). From an environment variable. */
    public DataSinkAMQP routingKey(EnvRef value) {
        return set("routing_key", value);
    }

    /** Connect with TLS, checking the broker's certificate and host name. Default: false. */
    public DataSinkAMQP tls(boolean value) {
        return set("tls", value);
    }

    /** Connect with TLS, checking the broker's certificate and host name. Default: false. From an environment variable. */
    public DataSinkAMQP tls(EnvRef value) {
        return set("tls", value);
    }

    /** CA certificate file (PEM) the broker's certificate is checked against, with tls (default: the CAs Java trusts). */
    public DataSinkAMQP tlsCaFile(String value) {
        return set("tls_ca_file", value);
    }

    /** CA certificate file (PEM) the broker's certificate is checked against, with tls (default: the CAs Java trusts). From an environment variable. */
    public DataSinkAMQP tlsCaFile(EnvRef value) {
        return set("tls_ca_file", value);
    }
}
