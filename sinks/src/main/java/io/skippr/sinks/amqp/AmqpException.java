package io.skippr.sinks.amqp;

/**
 * A problem reaching or publishing to the AMQP broker: unreachable, a refused login or TLS
 * handshake, a missing exchange, a message it could not route or refused. The message names the
 * broker, the virtual host and the user, never the password.
 */
public class AmqpException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AmqpException(String message) {
        super(message);
    }

    public AmqpException(String message, Throwable cause) {
        super(message, cause);
    }
}
