package io.skippr.sinks.azureblob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.Block;
import com.azure.storage.blob.models.BlockListType;
import com.azure.storage.blob.specialized.BlockBlobClient;
import io.skippr.config.Secret;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreContract;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Azure Blob store against Azurite, which {@code scripts/lib/azurite.sh} starts ({@code
 * SKIPPR_TEST_AZURE_*}): a container of its own per test, and a prefix inside it as the root.
 */
class AzureBlobFileStoreITCase extends FileStoreContract {
    private static final String PREFIX = "sinks/out";
    private final TestAzurite azurite = new TestAzurite();

    private BlobContainerClient container() {
        return azurite.container();
    }

    private static String env(String name) {
        return TestAzurite.env(name);
    }

    private static AzureBlobFileStore store(String container, String key) {
        return new AzureBlobFileStore(
                env("SKIPPR_TEST_AZURE_ACCOUNT"),
                new Secret(key),
                container,
                PREFIX,
                env("SKIPPR_TEST_AZURE_ENDPOINT"));
    }

    @Override
    protected FileStore open() {
        return store(container().getBlobContainerName(), env("SKIPPR_TEST_AZURE_KEY"));
    }

    @AfterEach
    void dropContainers() {
        azurite.close();
    }

    private Path file(String name, int bytes) throws IOException {
        byte[] data = new byte[bytes];
        new Random(bytes).nextBytes(data);
        return Files.write(local.resolve(name), data);
    }

    private static List<Long> sizes(List<Block> blocks) {
        return blocks.stream().map(Block::getSizeLong).toList();
    }

    @Test
    void aLargeFileIsStagedAsSeveralBlocksAndReadsBackByteIdentical() throws Exception {
        BlobContainerClient container = container();
        AzureBlobFileStore store =
                store(container.getBlobContainerName(), env("SKIPPR_TEST_AZURE_KEY"));
        int size = 10 * 1024 * 1024 + 123;
        Path f = file("big.parquet", size);
        byte[] expected = Files.readAllBytes(f);
        BlockBlobClient blob =
                container.getBlobClient(PREFIX + "/t/big.parquet").getBlockBlobClient();

        FileStore.Staged staged = store.stage(f, "t/big.parquet");
        assertThat(sizes(blob.listBlocks(BlockListType.UNCOMMITTED).getUncommittedBlocks()))
                .containsExactly(4L << 20, 4L << 20, 2L * 1024 * 1024 + 123);
        assertThat(Files.exists(f)).as("the local file, copied, is deleted").isFalse();
        assertThat(store.exists("t/big.parquet")).isFalse();

        assertThat(store.publish(staged)).isTrue();
        assertThat(sizes(blob.listBlocks(BlockListType.COMMITTED).getCommittedBlocks())).hasSize(3);
        Path back = local.resolve("back");
        store.download("t/big.parquet", back);
        assertThat(Files.readAllBytes(back)).isEqualTo(expected);
        assertThat(store.publish(staged)).as("a replayed commit").isFalse();
    }

    @Test
    void stagingTheSameFileAgainGivesTheSameHandle() throws Exception {
        AzureBlobFileStore store = (AzureBlobFileStore) open();
        FileStore.Staged first = store.stage(file("a", 5000), "t/a");
        FileStore.Staged again = store.stage(file("a", 5000), "t/a");
        assertThat(again).isEqualTo(first);
        assertThat(store.publish(first)).isTrue();
        assertThat(store.publish(again)).isFalse();
    }

    @Test
    void aSecondFileStagedUnderAPublishedBlobsNameNeverReplacesIt() throws Exception {
        AzureBlobFileStore store = (AzureBlobFileStore) open();
        assertThat(store.publish(store.stage(file("v1", 100), "t/v"))).isTrue();
        FileStore.Staged v2 = store.stage(file("v2", 200), "t/v");
        assertThat(store.get("t/v")).hasSize(100);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.publish(v2))
                .hasMessageContaining("never replaces a committed file");
        assertThat(store.get("t/v")).hasSize(100);
    }

    @Test
    void droppingStagedBlocksLeavesPublishedBlobsAndOtherPrefixesAlone() throws Exception {
        BlobContainerClient container = container();
        String key = env("SKIPPR_TEST_AZURE_KEY");
        AzureBlobFileStore store = store(container.getBlobContainerName(), key);
        AzureBlobFileStore other =
                new AzureBlobFileStore(
                        env("SKIPPR_TEST_AZURE_ACCOUNT"),
                        new Secret(key),
                        container.getBlobContainerName(),
                        "elsewhere",
                        env("SKIPPR_TEST_AZURE_ENDPOINT"));
        assertThat(store.publish(store.stage(file("kept", 300), "t/kept"))).isTrue();
        FileStore.Staged overwrite = store.stage(file("kept2", 400), "t/kept");
        store.discard(overwrite); // staged on top of a published blob: it must stay
        FileStore.Staged abandoned = store.stage(file("gone", 300), "t/gone");
        FileStore.Staged foreign = other.stage(file("foreign", 300), "t/foreign");

        store.discardStaged("gone");

        assertThat(store.get("t/kept")).hasSize(300);
        assertThat(store.list("")).containsExactly("t/kept");
        assertThat(container.getBlobClient(PREFIX + "/t/gone").exists()).isFalse();
        assertThatThrownBy(() -> store.publish(abandoned))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("'" + PREFIX + "/t/gone'")
                .hasMessageContaining("never published");
        assertThat(other.publish(foreign)).as("another root's staging is not ours").isTrue();
    }

    @Test
    void aWrongKeyFailsNamingAccountAndContainerButNotTheKey() throws Exception {
        String container = container().getBlobContainerName();
        String wrong =
                Base64.getEncoder()
                        .encodeToString(
                                "not the key of this account, 64 bytes long.........."
                                        .getBytes(StandardCharsets.US_ASCII));
        AzureBlobFileStore store = store(container, wrong);

        for (ThrowingCall call :
                List.<ThrowingCall>of(
                        () -> store.put("_skippr/x.json", new byte[] {1}),
                        () -> store.exists("x"),
                        () -> store.list(""),
                        () -> store.stage(file("w", 10), "t/w"))) {
            assertThatThrownBy(call::run)
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("'" + env("SKIPPR_TEST_AZURE_ACCOUNT") + "'")
                    .hasMessageContaining("'" + container + "'")
                    .hasMessageContaining("account_key")
                    .satisfies(
                            e -> {
                                StringWriter trace = new StringWriter();
                                e.printStackTrace(new PrintWriter(trace));
                                assertThat(trace.toString())
                                        .doesNotContain(wrong)
                                        .doesNotContain(env("SKIPPR_TEST_AZURE_KEY"));
                            });
        }
        assertThat(store.describe()).doesNotContain(wrong);
    }

    @Test
    void aMissingContainerIsNamed() {
        AzureBlobFileStore store = store("no-such-container", env("SKIPPR_TEST_AZURE_KEY"));
        assertThatThrownBy(() -> store.put("k", new byte[] {1}))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("container 'no-such-container' does not exist");
        assertThatThrownBy(() -> store.list(""))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("container 'no-such-container' does not exist");
    }

    @Test
    void describeIsTheContainerUrlAndPrefix() {
        assertThat(new AzureBlobFileStore("acct", new Secret("k"), "c", "a/b/", null).describe())
                .isEqualTo("https://acct.blob.core.windows.net/c/a/b");
        assertThat(
                        new AzureBlobFileStore(
                                        "acct", new Secret("k"), "c", null, "http://h:1/acct/")
                                .describe())
                .isEqualTo("http://h:1/acct/c");
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }
}
