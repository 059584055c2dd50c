package io.skippr.sinks.amqp;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.PossibleAuthenticationFailureException;
import com.rabbitmq.client.ShutdownSignalException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Opens connections to the broker the settings name, with TLS as they say, and turns the client's
 * failures into messages that say what to fix. Connections do not recover by themselves: a lost
 * connection fails the task, and Flink's restart publishes again what no checkpoint covered.
 */
final class AmqpBroker {
    static final int CONNECT_TIMEOUT_MS = 15_000;

    private AmqpBroker() {}

    /** A connection named {@code name} (the broker lists it under that name). */
    static Connection connect(AmqpSettings settings, String name) {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setHost(settings.host());
        factory.setPort(settings.port());
        factory.setUsername(settings.user());
        if (settings.password() != null) {
            factory.setPassword(settings.password().reveal());
        }
        factory.setVirtualHost(settings.virtualHost());
        factory.setAutomaticRecoveryEnabled(false);
        factory.setTopologyRecoveryEnabled(false);
        factory.setConnectionTimeout(CONNECT_TIMEOUT_MS);
        factory.setHandshakeTimeout(CONNECT_TIMEOUT_MS);
        if (settings.tls()) {
            factory.useSslProtocol(sslContext(settings));
            factory.enableHostnameVerification();
        }
        try {
            return factory.newConnection(name);
        } catch (PossibleAuthenticationFailureException e) {
            throw new AmqpException(
                    settings.broker()
                            + " refused the login: check user and password ("
                            + e.getMessage()
                            + ")",
                    e);
        } catch (SSLException e) {
            throw new AmqpException(tlsFailure(settings, e), e);
        } catch (UnknownHostException | ConnectException | SocketTimeoutException e) {
            throw new AmqpException("Cannot reach " + settings.broker() + ": " + e, e);
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException closed) {
                throw new AmqpException(
                        settings.broker() + " closed the connection: " + reason(closed), e);
            }
            if (e.getCause() instanceof SSLException tls) {
                throw new AmqpException(tlsFailure(settings, tls), e);
            }
            throw new AmqpException("Cannot connect to " + settings.broker() + ": " + e, e);
        } catch (TimeoutException e) {
            throw new AmqpException(
                    settings.broker()
                            + " did not answer the AMQP handshake within "
                            + CONNECT_TIMEOUT_MS / 1000
                            + " s",
                    e);
        }
    }

    /** The broker's words for a closed connection or channel: {@code NOT_FOUND - … (404)}. */
    static String reason(ShutdownSignalException closed) {
        if (closed.getReason() instanceof AMQP.Channel.Close close) {
            return close.getReplyText() + " (" + close.getReplyCode() + ")";
        }
        if (closed.getReason() instanceof AMQP.Connection.Close close) {
            return close.getReplyText() + " (" + close.getReplyCode() + ")";
        }
        return closed.getMessage();
    }

    private static String tlsFailure(AmqpSettings settings, SSLException e) {
        String message = String.valueOf(e.getMessage());
        String hint = "";
        if (message.contains("PKIX") || message.contains("certification path")) {
            hint =
                    settings.tlsCaFile() == null
                            ? "; its certificate is not signed by a CA Java trusts: name the CA's"
                                    + " certificate in tls_ca_file"
                            : "; its certificate is not signed by the CA in tls_ca_file ("
                                    + settings.tlsCaFile()
                                    + ")";
        } else if (message.contains("subject alternative")
                || message.contains("hostname")
                || message.contains("host name")) {
            hint = "; its certificate does not name host " + settings.host();
        }
        return "The TLS handshake with " + settings.broker() + " failed: " + message + hint;
    }

    /** Trusts the CAs of {@code tls_ca_file}, or those Java trusts. */
    private static SSLContext sslContext(AmqpSettings settings) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            TrustManagerFactory trust =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (settings.tlsCaFile() == null) {
                trust.init((KeyStore) null);
            } else {
                KeyStore cas = KeyStore.getInstance(KeyStore.getDefaultType());
                cas.load(null, null);
                try (InputStream in = Files.newInputStream(Path.of(settings.tlsCaFile()))) {
                    int n = 0;
                    for (Certificate ca :
                            CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                        cas.setCertificateEntry("ca-" + n++, ca);
                    }
                    if (n == 0) {
                        throw new AmqpException(
                                "tls_ca_file " + settings.tlsCaFile() + " holds no certificate");
                    }
                }
                trust.init(cas);
            }
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new AmqpException(
                    "Cannot read the CA certificates of tls_ca_file "
                            + settings.tlsCaFile()
                            + ": "
                            + e,
                    e);
        }
    }
}
