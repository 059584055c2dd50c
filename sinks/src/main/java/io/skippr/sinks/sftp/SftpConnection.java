package io.skippr.sinks.sftp;

import io.skippr.core.errors.Causes;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.keyverifier.AcceptAllServerKeyVerifier;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.NamedResource;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.keyprovider.KeyIdentityProvider;
import org.apache.sshd.common.util.security.SecurityUtils;
import org.apache.sshd.sftp.client.SftpClient;
import org.apache.sshd.sftp.client.SftpClientFactory;

/**
 * One logged-in SFTP channel: an SSH client, its session and the SFTP subsystem. Failures to
 * connect or log in name the server, the user and what to check, never the password.
 *
 * <p>Host keys are checked against the known_hosts file: a key that differs from the one recorded
 * there is refused; a host not yet recorded is accepted and its key appended (trust on first use,
 * as OpenSSH's {@code StrictHostKeyChecking=accept-new}).
 */
final class SftpConnection implements AutoCloseable {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final SshClient client;
    private final ClientSession session;
    private final SftpClient sftp;

    private SftpConnection(SshClient client, ClientSession session, SftpClient sftp) {
        this.client = client;
        this.session = session;
        this.sftp = sftp;
    }

    SftpClient sftp() {
        return sftp;
    }

    boolean isOpen() {
        return client.isOpen() && session.isOpen() && sftp.isOpen();
    }

    static SftpConnection open(SftpFileStore.Settings s) throws IOException {
        Path knownHosts = s.knownHostsFile();
        AtomicBoolean keyChanged = new AtomicBoolean();
        SshClient client = SshClient.setUpDefaultClient();
        client.setKeyIdentityProvider(KeyIdentityProvider.EMPTY_KEYS_PROVIDER);
        KnownHostsServerKeyVerifier verifier =
                new KnownHostsServerKeyVerifier(AcceptAllServerKeyVerifier.INSTANCE, knownHosts);
        verifier.setModifiedServerKeyAcceptor(
                (session, address, entry, expected, actual) -> {
                    keyChanged.set(true);
                    return false;
                });
        client.setServerKeyVerifier(verifier);
        if (knownHosts.getParent() != null) {
            try {
                Files.createDirectories(knownHosts.getParent());
            } catch (IOException e) {
                throw new IOException(
                        "cannot create the folder of known_hosts_file " + knownHosts, e);
            }
        }
        ClientSession session = null;
        try {
            client.start();
            try {
                session = client.connect(s.user(), s.host(), s.port()).verify(TIMEOUT).getSession();
            } catch (IOException e) {
                throw new IOException(
                        "cannot reach SFTP server "
                                + s.host()
                                + ":"
                                + s.port()
                                + ": "
                                + reason(e)
                                + " (check host, port and that the server is running)",
                        e);
            }
            if (s.password() != null) {
                session.addPasswordIdentity(s.password().reveal());
            }
            if (s.privateKeyFile() != null) {
                for (KeyPair key : loadKey(s)) {
                    session.addPublicKeyIdentity(key);
                }
            }
            try {
                session.auth().verify(TIMEOUT);
            } catch (IOException e) {
                if (keyChanged.get()) {
                    throw new IOException(
                            "the host key of SFTP server "
                                    + s.host()
                                    + ":"
                                    + s.port()
                                    + " does not match the one recorded in "
                                    + knownHosts
                                    + ": the server's key changed or this is not the server you"
                                    + " mean; if the change is expected, remove its line from"
                                    + " that file");
                }
                throw new IOException(
                        "SFTP server "
                                + s.host()
                                + ":"
                                + s.port()
                                + " refused to log in user '"
                                + s.user()
                                + "' with "
                                + s.credentialsUsed()
                                + ": "
                                + reason(e),
                        e);
            }
            try {
                return new SftpConnection(
                        client, session, SftpClientFactory.instance().createSftpClient(session));
            } catch (IOException e) {
                throw new IOException(
                        "SFTP server "
                                + s.host()
                                + ":"
                                + s.port()
                                + " logged in user '"
                                + s.user()
                                + "' but did not start its SFTP subsystem: "
                                + reason(e),
                        e);
            }
        } catch (IOException | RuntimeException e) {
            closeQuietly(session, client);
            throw e;
        }
    }

    private static Iterable<KeyPair> loadKey(SftpFileStore.Settings s) throws IOException {
        Path file = s.privateKeyFile();
        try (InputStream in = Files.newInputStream(file)) {
            Iterable<KeyPair> keys =
                    SecurityUtils.loadKeyPairIdentities(
                            null,
                            NamedResource.ofName(file.toString()),
                            in,
                            s.privateKeyPassphrase() == null
                                    ? FilePasswordProvider.EMPTY
                                    : FilePasswordProvider.of(s.privateKeyPassphrase().reveal()));
            if (keys == null || !keys.iterator().hasNext()) {
                throw new IOException("no private key found in " + file);
            }
            return keys;
        } catch (NoSuchFileException e) {
            throw new IOException("private_key_file " + file + " does not exist", e);
        } catch (GeneralSecurityException | IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("no private key")) {
                throw (IOException) e;
            }
            throw new IOException(
                    "cannot read the private key in "
                            + file
                            + (s.privateKeyPassphrase() == null
                                    ? " (is it encrypted? then set private_key_passphrase)"
                                    : " (is private_key_passphrase right?)")
                            + ": "
                            + e.getClass().getSimpleName(),
                    e);
        }
    }

    /** What went wrong, from the exception chain; libraries never see the password. */
    private static String reason(Throwable e) {
        Throwable root = Causes.innermost(e);
        if (root instanceof ConnectException) {
            return "connection refused";
        }
        if (root instanceof UnknownHostException) {
            return "unknown host";
        }
        String message = root.getMessage();
        return message == null ? root.getClass().getSimpleName() : message;
    }

    private static void closeQuietly(ClientSession session, SshClient client) {
        try {
            if (session != null) {
                session.close();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing after a failure; the failure is what the caller reports
        }
        client.stop();
    }

    @Override
    public void close() throws IOException {
        try {
            sftp.close();
        } finally {
            closeQuietly(session, client);
        }
    }
}
