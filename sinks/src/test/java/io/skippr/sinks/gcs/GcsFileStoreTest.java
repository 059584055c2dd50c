package io.skippr.sinks.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreContract;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The GCS store through the official client's real HTTP transport, against Skippr's fake of the
 * JSON API ({@link FakeGcsServer}, on 127.0.0.1): no GCS emulator can be had here. The server is
 * one per JVM and lists in pages of 3, so listing pages; each store gets a prefix of its own in
 * bucket {@value #BUCKET}.
 */
class GcsFileStoreTest extends FileStoreContract {
    private static final String BUCKET = "skippr-test";
    private static final FakeGcsServer SERVER = FakeGcsServer.get();

    @BeforeAll
    static void bucket() throws IOException {
        SERVER.createBucket(BUCKET);
        SERVER.createBucket("other-bucket");
    }

    private static GcsFileStore store(String bucket, String prefix) {
        return new GcsFileStore(bucket, prefix, null, null, SERVER.endpoint());
    }

    /** The fake's objects as another client sees them. */
    private static Storage storage() {
        return StorageOptions.http()
                .setHost(SERVER.endpoint())
                .setProjectId("p")
                .setCredentials(NoCredentials.getInstance())
                .build()
                .getService();
    }

    @Override
    protected FileStore open() {
        return store(BUCKET, FakeGcsServer.freshPrefix());
    }

    @Test
    void stagedFilesWaitAsHiddenTemporaryObjectsAndAreDeletedOnPublish() throws Exception {
        String prefix = FakeGcsServer.freshPrefix();
        Storage storage = storage();
        Path f = Files.writeString(local.resolve("x.csv"), "a,b\n");
        try (GcsFileStore store = store(BUCKET, prefix)) {
            FileStore.Staged staged = store.stage(f, "t/x.csv");
            assertThat(f).doesNotExist();
            assertThat(staged.token()).startsWith(prefix + "/.skippr-staging/");
            assertThat(storage.readAllBytes(BlobId.of(BUCKET, staged.token())))
                    .asString(StandardCharsets.UTF_8)
                    .isEqualTo("a,b\n");

            assertThat(store.publish(staged)).isTrue();
            assertThat(storage.get(BlobId.of(BUCKET, staged.token()))).isNull();
            assertThat(storage.readAllBytes(BlobId.of(BUCKET, prefix + "/t/x.csv")))
                    .asString(StandardCharsets.UTF_8)
                    .isEqualTo("a,b\n");
        }
    }

    /**
     * A publish that stopped after its copy and before deleting the staged object (a crash) is
     * replayed: the copy is refused by ifGenerationMatch=0, the object under the key is recognised
     * as this file, the staged object is deleted, and the replay reports false.
     */
    @Test
    void aPublishReplayedAfterItsCopyButBeforeItsDeleteSucceedsAndCleansUp() throws Exception {
        String prefix = FakeGcsServer.freshPrefix();
        Storage storage = storage();
        Path f = Files.writeString(local.resolve("y.csv"), "c,d\n");
        try (GcsFileStore store = store(BUCKET, prefix)) {
            FileStore.Staged staged = store.stage(f, "t/y.csv");
            storage.copy(
                            Storage.CopyRequest.newBuilder()
                                    .setSource(BlobId.of(BUCKET, staged.token()))
                                    .setTarget(BlobId.of(BUCKET, prefix + "/t/y.csv"))
                                    .build())
                    .getResult(); // the crashed publish's copy, staged object left behind

            assertThat(store.publish(staged)).as("a replayed commit").isFalse();
            assertThat(storage.get(BlobId.of(BUCKET, staged.token()))).isNull();
            assertThat(store.get("t/y.csv")).asString(StandardCharsets.UTF_8).isEqualTo("c,d\n");
        }
    }

    @Test
    void aStoreWithoutPrefixUsesTheWholeBucketAndDescribesItself() throws Exception {
        GcsFileStore store = store("other-bucket", "/");
        assertThat(store.describe()).isEqualTo("gs://other-bucket");
        store.put("k", new byte[] {1});
        assertThat(storage().get(BlobId.of("other-bucket", "k"))).isNotNull();
        assertThat(store("b", "p/q/").describe()).isEqualTo("gs://b/p/q");
    }

    @Test
    void anUnreachableEndpointIsReportedWithTheObjectOverTheRealHttpTransport() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        StorageOptions unreachable =
                StorageOptions.http()
                        .setProjectId("p")
                        .setCredentials(NoCredentials.getInstance())
                        .setHost("http://127.0.0.1:" + closed)
                        .setRetrySettings(ServiceOptions.getNoRetrySettings())
                        .build();
        // no retries: the default settings retry an unreachable endpoint for up to 50 s
        GcsFileStore store = new GcsFileStore("a-bucket", "out", unreachable);
        assertThatThrownBy(() -> store.exists("t/k"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("gs://a-bucket/out/t/k")
                .hasMessageContaining(
                        "cannot reach Google Cloud Storage at http://127.0.0.1:" + closed);
    }

    @Test
    void aMissingCredentialsFileIsNamed() {
        GcsFileStore store =
                new GcsFileStore(
                        BUCKET, "p", "some-project", local.resolve("nope.json").toString(), null);
        assertThatThrownBy(() -> store.exists("k"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("credentials_file " + local.resolve("nope.json"))
                .hasMessageContaining("does not exist");
    }

    @Test
    void aCredentialsFileThatIsNoKeyIsNamedWithoutItsContent() throws Exception {
        Path bad = Files.writeString(local.resolve("bad.json"), "{\"private_key\":\"SECRET-X\"}");
        GcsFileStore store = new GcsFileStore(BUCKET, "p", null, bad.toString(), null);
        assertThatThrownBy(() -> store.exists("k"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(bad.toString())
                .hasMessageNotContaining("SECRET-X");
    }

    @Test
    void listingFollowsThePagesOfTheJsonApi() throws Exception {
        try (GcsFileStore store = store(BUCKET, FakeGcsServer.freshPrefix())) {
            for (int i = 0; i < 7; i++) {
                store.put("t/k" + i, new byte[] {(byte) i});
            }
            store.put("u/other", new byte[] {9});
            assertThat(store.list("t/"))
                    .containsExactly("t/k0", "t/k1", "t/k2", "t/k3", "t/k4", "t/k5", "t/k6");
        }
    }

    @Test
    void aPlainHttpEndpointOnThisMachineGetsNoCredentials() throws Exception {
        SERVER.resetCounters();
        try (GcsFileStore store = store(BUCKET, FakeGcsServer.freshPrefix())) {
            store.put("k", new byte[] {1});
            assertThat(
                            store.publish(
                                    store.stage(Files.write(local.resolve("f"), new byte[9]), "f")))
                    .isTrue();
            assertThat(store.get("f")).hasSize(9);
        }
        assertThat(SERVER.requestsWithCredentials()).isZero();
    }

    @Test
    void aMissingBucketIsNamedAsSuch() {
        GcsFileStore store = store("no-such-bucket", "p");
        assertThatThrownBy(() -> store.put("k", new byte[] {1}))
                .isInstanceOf(NoSuchFileException.class)
                .hasMessageContaining("gs://no-such-bucket/p/k")
                .hasMessageContaining("does bucket no-such-bucket exist?");
    }

    @Test
    void aCredentialsFileWithAPlainHttpEndpointIsRefused() {
        assertThatThrownBy(
                        () ->
                                new GcsFileStore(
                                        BUCKET,
                                        "p",
                                        null,
                                        local.resolve("key.json").toString(),
                                        SERVER.endpoint()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("credentials_file is never sent to a plain-http endpoint");
    }
}
