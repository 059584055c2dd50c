package io.skippr.sinks.files;

/** The local folder store. */
class LocalFileStoreTest extends FileStoreContract {
    private int roots;

    @Override
    protected FileStore open() {
        return new LocalFileStore(local.resolve("root-" + roots++));
    }

    /**
     * A publish that stopped after linking the file under its name and before removing the staged
     * name (a crash) is replayed: the file under the key is the staged one, the staged name is
     * removed, and the replay reports false.
     */
    @org.junit.jupiter.api.Test
    void aPublishReplayedAfterItsLinkButBeforeItsRemovalSucceedsAndCleansUp() throws Exception {
        java.nio.file.Path root = local.resolve("root");
        FileStore store = new LocalFileStore(root);
        java.nio.file.Path f = java.nio.file.Files.writeString(local.resolve("y"), "c,d\n");
        FileStore.Staged staged = store.stage(f, "t/y.csv");
        java.nio.file.Files.createDirectories(root.resolve("t"));
        java.nio.file.Files.createLink(
                root.resolve("t/y.csv"), java.nio.file.Path.of(staged.token()));

        org.assertj.core.api.Assertions.assertThat(store.publish(staged)).isFalse();
        org.assertj.core.api.Assertions.assertThat(java.nio.file.Path.of(staged.token()))
                .doesNotExist();
        org.assertj.core.api.Assertions.assertThat(store.get("t/y.csv"))
                .asString(java.nio.charset.StandardCharsets.UTF_8)
                .isEqualTo("c,d\n");
    }
}
