package io.skippr.conformance;

import io.skippr.config.Secret;
import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.sftp.SftpFileStore;
import io.skippr.sinks.sftp.TestSftpServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The SFTP sink against the sinks module's in-process Apache MINA SSHD server (reached over TCP on
 * 127.0.0.1, also by {@code skipprd} processes): password login, a folder each, the server's host
 * key recorded in a known_hosts file of the test's own.
 */
final class SftpFixture extends FileStoreFixture {
    private final TestSftpServer server = TestSftpServer.get();
    private final String folder = TestSftpServer.freshFolder();

    SftpFixture(String format) {
        super(format);
    }

    private static Path knownHosts(Path dir) throws Exception {
        Path file = dir.resolve("known_hosts");
        if (!Files.exists(file)) {
            Files.writeString(file, TestSftpServer.get().knownHostsLine() + "\n");
        }
        return file;
    }

    @Override
    public String kind() {
        return "SFTP";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) throws Exception {
        return "    SFTP:\n      host: 127.0.0.1\n      port: "
                + server.port()
                + "\n      user: "
                + TestSftpServer.PASSWORD_USER
                + "\n      password: ${KIT_SFTP_PW}\n      known_hosts_file: "
                + knownHosts(dir)
                + "\n      path: "
                + folder
                + "\n      format: "
                + format
                + "\n";
    }

    @Override
    public Map<String, String> env() {
        return Map.of("KIT_SFTP_PW", TestSftpServer.PASSWORD);
    }

    /** The files as they are on the server's disk, as {@code ls -R} over ssh shows them. */
    @Override
    List<String> list(Path dir, String prefix) throws Exception {
        return LocalFileFixture.walk(server.files().resolve(folder.substring(1)), prefix);
    }

    @Override
    FileStore store(Path dir) throws Exception {
        return new SftpFileStore(
                new SftpFileStore.Settings(
                        "127.0.0.1",
                        server.port(),
                        TestSftpServer.PASSWORD_USER,
                        new Secret(TestSftpServer.PASSWORD),
                        null,
                        null,
                        knownHosts(dir).toString(),
                        folder));
    }
}
