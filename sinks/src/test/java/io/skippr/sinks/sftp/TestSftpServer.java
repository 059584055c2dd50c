package io.skippr.sinks.sftp;

import io.skippr.config.Secret;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.file.virtualfs.VirtualFileSystemFactory;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.session.ServerSession;
import org.apache.sshd.sftp.server.SftpEventListener;
import org.apache.sshd.sftp.server.SftpSubsystemFactory;

/**
 * An in-process Apache MINA SSHD SFTP server on 127.0.0.1 and a free port, started once per JVM,
 * its files in a temporary folder. Two users: {@link #PASSWORD_USER} logs in with {@link
 * #PASSWORD}, {@link #KEY_USER} with the RSA key in {@link #privateKeyFile()} (OpenSSH format,
 * encrypted with {@link #KEY_PASSPHRASE}).
 */
public final class TestSftpServer {
    public static final String PASSWORD_USER = "writer";
    public static final String PASSWORD = "pw-Xq7!never-log-me";
    static final String KEY_USER = "keyholder";
    static final String KEY_PASSPHRASE = "phrase-9Kd";

    private static TestSftpServer instance;
    private static final AtomicInteger FOLDERS = new AtomicInteger();

    private final SshServer server;
    private final Path files;
    private final Path privateKeyFile;
    private final PublicKey hostKey;
    private final Map<String, Runnable> beforeNaming = new ConcurrentHashMap<>();

    private TestSftpServer() throws IOException, GeneralSecurityException {
        Path home = Files.createTempDirectory("skippr-sftp-");
        files = Files.createDirectories(home.resolve("files"));
        KeyPair host = rsa();
        KeyPair user = rsa();
        hostKey = host.getPublic();
        privateKeyFile = home.resolve("id_rsa");
        OpenSSHKeyEncryptionContext encryption = new OpenSSHKeyEncryptionContext();
        encryption.setPassword(KEY_PASSPHRASE);
        encryption.setCipherName("AES");
        encryption.setCipherType("256");
        encryption.setCipherMode("CTR");
        try (OutputStream out = Files.newOutputStream(privateKeyFile)) {
            OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(
                    user, "skippr-test", encryption, out);
        }
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(0);
        server.setKeyPairProvider(KeyPairProvider.wrap(host));
        server.setPasswordAuthenticator(
                (name, password, session) ->
                        PASSWORD_USER.equals(name) && PASSWORD.equals(password));
        server.setPublickeyAuthenticator(
                (name, key, session) ->
                        KEY_USER.equals(name) && KeyUtils.compareKeys(key, user.getPublic()));
        server.setKeyboardInteractiveAuthenticator(null);
        SftpSubsystemFactory sftp = new SftpSubsystemFactory();
        sftp.addSftpEventListener(
                new SftpEventListener() {
                    @Override
                    public void linking(
                            ServerSession session, Path link, Path existing, boolean symLink) {
                        naming(link); // MINA passes the new name first
                    }

                    @Override
                    public void moving(
                            ServerSession session,
                            Path source,
                            Path target,
                            Collection<CopyOption> options) {
                        naming(target);
                    }
                });
        server.setSubsystemFactories(List.of(sftp));
        server.setFileSystemFactory(new VirtualFileSystemFactory(files));
        server.start();
    }

    private void naming(Path target) {
        Runnable action = beforeNaming.remove(String.valueOf(target.getFileName()));
        if (action != null) {
            action.run();
        }
    }

    /**
     * Runs {@code action} on the server, once, when it is about to link or rename a file to a name
     * whose last part is {@code fileName}: another writer that gets there first.
     */
    void beforeNaming(String fileName, Runnable action) {
        beforeNaming.put(fileName, action);
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    /** The server, started on first use. */
    public static synchronized TestSftpServer get() {
        if (instance == null) {
            try {
                instance = new TestSftpServer();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }
        return instance;
    }

    public int port() {
        return server.getPort();
    }

    /**
     * The server's files on the local disk: SFTP path {@code /x} is {@code files().resolve("x")}.
     */
    public Path files() {
        return files;
    }

    Path privateKeyFile() {
        return privateKeyFile;
    }

    /** A new folder name for one store, such as {@code /run-3}. */
    public static String freshFolder() {
        return "/run-" + FOLDERS.incrementAndGet();
    }

    /** A known_hosts line for this server's host key. */
    public String knownHostsLine() {
        return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(hostKey);
    }

    SftpFileStore.Settings passwordUser(String path, Path knownHosts) {
        return new SftpFileStore.Settings(
                "127.0.0.1",
                port(),
                PASSWORD_USER,
                new Secret(PASSWORD),
                null,
                null,
                knownHosts.toString(),
                path);
    }

    SftpFileStore.Settings keyUser(String path, Path knownHosts) {
        return new SftpFileStore.Settings(
                "127.0.0.1",
                port(),
                KEY_USER,
                null,
                privateKeyFile.toString(),
                new Secret(KEY_PASSPHRASE),
                knownHosts.toString(),
                path);
    }
}
