package io.skippr.sinks.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.ServiceOptions;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import com.google.cloud.storage.contrib.nio.testing.LocalStorageHelper;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreContract;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The GCS store against google-cloud-nio's in-memory double of the storage service ({@link
 * LocalStorageHelper}): no GCS emulator can be had here. The double is one per JVM; each store gets
 * a prefix of its own in bucket {@value #BUCKET}.
 */
class GcsFileStoreTest extends FileStoreContract {
    private static final String BUCKET = "skippr-test";
    private static final StorageOptions OPTIONS = LocalStorageHelper.getOptions();
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private static String freshPrefix() {
        return "run-" + PREFIXES.incrementAndGet() + "/out";
    }

    @Override
    protected FileStore open() {
        return new GcsFileStore(BUCKET, freshPrefix(), OPTIONS);
    }

    @Test
    void stagedFilesWaitAsHiddenTemporaryObjectsAndAreDeletedOnPublish() throws Exception {
        String prefix = freshPrefix();
        Storage storage = OPTIONS.getService();
        Path f = Files.writeString(local.resolve("x.csv"), "a,b\n");
        try (GcsFileStore store = new GcsFileStore(BUCKET, prefix, OPTIONS)) {
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

    @Test
    void aStoreWithoutPrefixUsesTheWholeBucketAndDescribesItself() throws Exception {
        GcsFileStore store = new GcsFileStore("other-bucket", "/", OPTIONS);
        assertThat(store.describe()).isEqualTo("gs://other-bucket");
        store.put("k", new byte[] {1});
        assertThat(OPTIONS.getService().get(BlobId.of("other-bucket", "k"))).isNotNull();
        assertThat(new GcsFileStore("b", "p/q/", OPTIONS).describe()).isEqualTo("gs://b/p/q");
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
                        BUCKET, "p", "some-project", local.resolve("nope.json").toString());
        assertThatThrownBy(() -> store.exists("k"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("credentials_file " + local.resolve("nope.json"))
                .hasMessageContaining("does not exist");
    }

    @Test
    void aCredentialsFileThatIsNoKeyIsNamedWithoutItsContent() throws Exception {
        Path bad = Files.writeString(local.resolve("bad.json"), "{\"private_key\":\"SECRET-X\"}");
        GcsFileStore store = new GcsFileStore(BUCKET, "p", null, bad.toString());
        assertThatThrownBy(() -> store.exists("k"))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(bad.toString())
                .hasMessageNotContaining("SECRET-X");
    }
}
