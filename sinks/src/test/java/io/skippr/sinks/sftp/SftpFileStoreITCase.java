package io.skippr.sinks.sftp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Secret;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreContract;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The SFTP store against an in-process MINA SSHD server ({@link TestSftpServer}): the contract with
 * password login, then key login, refused logins, an unreachable server and host keys.
 */
class SftpFileStoreITCase extends FileStoreContract {
    private static final TestSftpServer SERVER = TestSftpServer.get();

    private Path knownHosts() {
        return local.resolve("known_hosts");
    }

    @Override
    protected FileStore open() {
        return new SftpFileStore(SERVER.passwordUser(TestSftpServer.freshFolder(), knownHosts()));
    }

    @Test
    void stagedFilesWaitInTheHiddenStagingFolderAndTheLocalCopyIsDeleted() throws Exception {
        String folder = TestSftpServer.freshFolder();
        Path onServer = SERVER.files().resolve(folder.substring(1));
        Path f = Files.writeString(local.resolve("x.csv"), "a,b\n");
        try (SftpFileStore store = new SftpFileStore(SERVER.passwordUser(folder, knownHosts()))) {
            FileStore.Staged staged = store.stage(f, "t/x.csv");
            assertThat(f).doesNotExist();
            assertThat(staged.token()).startsWith(folder + "/.skippr-staging/");
            assertThat(onServer.resolve(staged.token().substring(folder.length() + 1)))
                    .hasContent("a,b");
            assertThat(onServer.resolve("t/x.csv")).doesNotExist();

            assertThat(store.publish(staged)).isTrue();
            assertThat(onServer.resolve("t/x.csv")).hasContent("a,b");
            try (var staging = Files.walk(onServer.resolve(".skippr-staging"))) {
                assertThat(staging.filter(Files::isRegularFile)).isEmpty();
            }
        }
    }

    @Test
    void publishNeverReplacesAFileAlreadyUnderTheKey() throws Exception {
        try (SftpFileStore store =
                new SftpFileStore(
                        SERVER.passwordUser(TestSftpServer.freshFolder(), knownHosts()))) {
            store.put("t/f", "old".getBytes(StandardCharsets.UTF_8));
            Path f = Files.writeString(local.resolve("f"), "new");
            FileStore.Staged staged = store.stage(f, "t/f");
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.publish(staged))
                    .hasMessageContaining("never replaces a committed file");
            assertThat(store.get("t/f")).asString(StandardCharsets.UTF_8).isEqualTo("old");
        }
    }

    /**
     * A file that lands under the key after the publish looked for one and before the server names
     * the staged file (another publisher of the same name: the race a look-then-rename leaves) is
     * never replaced: the publish fails, naming the key, and the other file stays whole.
     */
    @Test
    void aFileThatLandsUnderTheKeyJustBeforeThePublishNamesItIsNeverReplaced() throws Exception {
        String folder = TestSftpServer.freshFolder();
        Path onServer = SERVER.files().resolve(folder.substring(1));
        String name = "race-" + folder.substring(5) + ".csv";
        try (SftpFileStore store = new SftpFileStore(SERVER.passwordUser(folder, knownHosts()))) {
            FileStore.Staged staged =
                    store.stage(Files.writeString(local.resolve("ours"), "ours\n"), "t/" + name);
            SERVER.beforeNaming(
                    name,
                    () -> {
                        try {
                            Files.writeString(onServer.resolve("t/" + name), "theirs\n");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });

            assertThatThrownBy(() -> store.publish(staged))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("refusing to publish " + folder + "/t/" + name)
                    .hasMessageContaining("never replaces a committed file");
            assertThat(onServer.resolve("t/" + name)).hasContent("theirs");
        }
    }

    /**
     * A commit replayed after the staged file got its final name by a hard link but before its
     * staged name was removed finds both names on one file: it removes the staged name and reports
     * the replay.
     */
    @Test
    void aPublishReplayedBetweenTheLinkAndTheStagedNamesRemovalIsANoOp() throws Exception {
        String folder = TestSftpServer.freshFolder();
        Path onServer = SERVER.files().resolve(folder.substring(1));
        try (SftpFileStore store = new SftpFileStore(SERVER.passwordUser(folder, knownHosts()))) {
            FileStore.Staged staged =
                    store.stage(Files.writeString(local.resolve("l"), "linked\n"), "t/l.csv");
            Path temp = onServer.resolve(staged.token().substring(folder.length() + 1));
            Files.createDirectories(onServer.resolve("t"));
            Files.createLink(onServer.resolve("t/l.csv"), temp); // the first attempt's link

            assertThat(store.publish(staged)).isFalse();
            assertThat(onServer.resolve("t/l.csv")).hasContent("linked");
            assertThat(temp).doesNotExist();
            assertThat(store.list("t/")).containsExactly("t/l.csv");
        }
    }

    @Test
    void aKeyUserLogsInWithAnEncryptedOpenSshPrivateKey() throws Exception {
        try (SftpFileStore store =
                new SftpFileStore(SERVER.keyUser(TestSftpServer.freshFolder(), knownHosts()))) {
            store.put("_skippr/k", "v".getBytes(StandardCharsets.UTF_8));
            assertThat(store.get("_skippr/k")).asString(StandardCharsets.UTF_8).isEqualTo("v");
            assertThat(store.list("")).containsExactly("_skippr/k");
        }
    }

    @Test
    void aWrongKeyPassphraseNamesTheKeyFile() {
        SftpFileStore.Settings good = SERVER.keyUser("/any", knownHosts());
        SftpFileStore store =
                new SftpFileStore(
                        new SftpFileStore.Settings(
                                good.host(),
                                good.port(),
                                good.user(),
                                null,
                                good.privateKey(),
                                new Secret("not-the-phrase"),
                                good.knownHosts(),
                                good.path()));
        assertThatThrownBy(() -> store.exists("x"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(good.privateKey())
                .hasMessageContaining("private_key_passphrase")
                .hasMessageNotContaining("not-the-phrase");
    }

    @Test
    void aWrongPasswordIsRefusedWithAClearMessageThatHidesIt() {
        SftpFileStore.Settings good = SERVER.passwordUser("/any", knownHosts());
        String wrong = "Wrong-Pw-123";
        SftpFileStore store =
                new SftpFileStore(
                        new SftpFileStore.Settings(
                                good.host(),
                                good.port(),
                                good.user(),
                                new Secret(wrong),
                                null,
                                null,
                                good.knownHosts(),
                                good.path()));
        assertThatThrownBy(() -> store.put("x", new byte[1]))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("127.0.0.1:" + SERVER.port())
                .hasMessageContaining("refused to log in user '" + TestSftpServer.PASSWORD_USER)
                .hasMessageContaining("password")
                .hasMessageNotContaining(wrong);
        assertThat(store.describe()).doesNotContain(wrong);
        assertThat(good.toString()).doesNotContain(TestSftpServer.PASSWORD);
    }

    @Test
    void anUnreachableServerIsNamedByHostAndPort() throws Exception {
        int closed;
        try (ServerSocket socket =
                new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        SftpFileStore store =
                new SftpFileStore(
                        new SftpFileStore.Settings(
                                "127.0.0.1",
                                closed,
                                "someone",
                                new Secret("pw"),
                                null,
                                null,
                                knownHosts().toString(),
                                "/out"));
        assertThatThrownBy(() -> store.list(""))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot reach SFTP server 127.0.0.1:" + closed);
    }

    @Test
    void anUnknownHostKeyIsRememberedOnFirstUse() throws Exception {
        assertThat(knownHosts()).doesNotExist();
        try (SftpFileStore store =
                new SftpFileStore(
                        SERVER.passwordUser(TestSftpServer.freshFolder(), knownHosts()))) {
            assertThat(store.exists("x")).isFalse();
        }
        assertThat(Files.readString(knownHosts()))
                .contains(SERVER.knownHostsLine().substring(SERVER.knownHostsLine().indexOf(' ')));
        try (SftpFileStore again =
                new SftpFileStore(
                        SERVER.passwordUser(TestSftpServer.freshFolder(), knownHosts()))) {
            assertThat(again.exists("x")).as("the recorded key matches").isFalse();
        }
    }

    @Test
    void aChangedHostKeyIsRefused() throws Exception {
        String otherKey =
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl";
        Files.writeString(knownHosts(), "[127.0.0.1]:" + SERVER.port() + " " + otherKey + "\n");
        SftpFileStore store =
                new SftpFileStore(SERVER.passwordUser(TestSftpServer.freshFolder(), knownHosts()));
        assertThatThrownBy(() -> store.exists("x"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("host key of SFTP server 127.0.0.1:" + SERVER.port())
                .hasMessageContaining(knownHosts().toString());
    }
}
