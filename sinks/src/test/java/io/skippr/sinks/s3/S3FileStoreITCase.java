package io.skippr.sinks.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.files.FileStoreContract;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The file-store contract against S3Proxy, plus what is S3's own: parts, prefixes, errors. */
class S3FileStoreITCase extends FileStoreContract {
    @Override
    protected FileStore open() {
        return new S3FileStore(TestS3.connection(), TestS3.bucket(), TestS3.freshPrefix());
    }

    private Path file(String name, int bytes) throws IOException {
        byte[] data = new byte[bytes];
        new Random(bytes).nextBytes(data);
        return Files.write(local.resolve(name), data);
    }

    @Test
    void aLargeFileIsUploadedInPartsAndPublishedWhole() throws Exception {
        int partSize = 5 * 1024 * 1024; // S3's smallest part
        try (S3FileStore store =
                new S3FileStore(
                        TestS3.connection(), TestS3.bucket(), TestS3.freshPrefix(), partSize)) {
            Path f = file("big.parquet", 2 * partSize + 12_345);
            byte[] expected = Files.readAllBytes(f);
            FileStore.Staged staged = store.stage(f, "t/big.parquet");

            assertThat(MultipartToken.decode(staged.token(), "t").etags()).hasSize(3);
            assertThat(f).as("the store deletes the local file it uploaded").doesNotExist();
            assertThat(store.exists("t/big.parquet")).isFalse();
            assertThat(store.publish(staged)).isTrue();
            Path back = local.resolve("back");
            store.download("t/big.parquet", back);
            assertThat(Files.readAllBytes(back)).isEqualTo(expected);
        }
    }

    @Test
    void aReplayedPublishLeavesTheObjectWhole() throws Exception {
        String prefix = TestS3.freshPrefix();
        try (S3FileStore store = new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix);
                S3FileStore restored =
                        new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix)) {
            Path f = file("r", 4096);
            byte[] expected = Files.readAllBytes(f);
            FileStore.Staged staged = store.stage(f, "t/r");
            assertThat(store.publish(staged)).isTrue();
            assertThat(store.publish(staged)).isFalse();
            assertThat(restored.publish(new FileStore.Staged("t/r", staged.token()))).isFalse();
            assertThat(restored.get("t/r")).isEqualTo(expected);
        }
    }

    /**
     * {@code token} with each part ETag replaced by {@code etag} (SSE-KMS gives parts ETags that
     * are no MD5 of their bytes, SSE-C ones S3 documents as opaque): what a replay holds there.
     */
    private static String withPartEtags(String token, String etag) throws IOException {
        int parts = MultipartToken.decode(token, "t").etags().size();
        List<String> lines = new java.util.ArrayList<>(List.of(token.split("\n", -1)));
        for (int i = lines.size() - parts; i < lines.size(); i++) {
            lines.set(i, etag);
        }
        return String.join("\n", lines);
    }

    /**
     * A commit replayed after its publish succeeded is recognised by the content, not the ETag:
     * with part ETags that are no MD5s (as under SSE-KMS), the object under the key is still found
     * to be the staged file, and the publish reports false.
     */
    @Test
    void aReplayIsRecognisedWhereThePartEtagsAreNoMd5s() throws Exception {
        try (S3FileStore store = (S3FileStore) open()) {
            Path f = file("kms", 5000);
            byte[] expected = Files.readAllBytes(f);
            FileStore.Staged staged = store.stage(f, "t/kms.jsonl");
            assertThat(store.publish(staged)).isTrue();

            String kms = withPartEtags(staged.token(), "\"0123456789abcdef0123456789abcdef\"");
            assertThat(store.publish(new FileStore.Staged("t/kms.jsonl", kms))).isFalse();
            assertThat(store.get("t/kms.jsonl")).isEqualTo(expected);
        }
    }

    /**
     * Where the part ETags say nothing (opaque, as under SSE-C), an object of the same size but
     * other bytes under the key is not taken for the replay: the publish fails, naming both
     * checksums, and the committed object stays as it is.
     */
    @Test
    void anotherObjectOfTheSameSizeIsRefusedWhereThePartEtagsAreOpaque() throws Exception {
        try (S3FileStore store = (S3FileStore) open()) {
            Path first = file("c1", 3000);
            byte[] committed = Files.readAllBytes(first);
            assertThat(store.publish(store.stage(first, "t/c.jsonl"))).isTrue();
            byte[] other = committed.clone();
            other[0] ^= 1;
            FileStore.Staged staged =
                    store.stage(Files.write(local.resolve("c2"), other), "t/c.jsonl");
            store.discard(staged); // its upload gone, as after a lifecycle rule or a replay
            String opaque = withPartEtags(staged.token(), "\"opaque-part-tag\"");

            assertThatThrownBy(() -> store.publish(new FileStore.Staged("t/c.jsonl", opaque)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("refusing to publish s3://")
                    .hasMessageContaining("t/c.jsonl: it already holds a committed object")
                    .hasMessageContaining("3000 bytes) that is not the staged file");
            assertThat(store.get("t/c.jsonl")).isEqualTo(committed);
        }
    }

    @Test
    void discardingStagedLeavesAnotherPrefixAlone() throws Exception {
        String prefix = TestS3.freshPrefix();
        try (S3FileStore mine = new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix);
                S3FileStore neighbour =
                        new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix + "-b")) {
            FileStore.Staged theirs = neighbour.stage(file("n", 100), "t/n");
            mine.stage(file("m", 100), "t/m");
            mine.discardStaged("n");

            assertThat(neighbour.publish(theirs)).isTrue();
            assertThat(neighbour.list("")).containsExactly("t/n");
            assertThat(mine.list("")).isEmpty();
        }
    }

    @Test
    void slashesAroundThePrefixDoNotMatter() throws Exception {
        String prefix = TestS3.freshPrefix();
        try (S3FileStore plain = new S3FileStore(TestS3.connection(), TestS3.bucket(), prefix);
                S3FileStore slashed =
                        new S3FileStore(TestS3.connection(), TestS3.bucket(), "/" + prefix + "/")) {
            slashed.put("_skippr/x.json", new byte[] {1});
            assertThat(plain.list("")).containsExactly("_skippr/x.json");
            assertThat(plain.describe()).isEqualTo(slashed.describe());
        }
    }

    @Test
    void aClosedStoreOpensItsClientAgain() throws Exception {
        try (S3FileStore store = (S3FileStore) open()) {
            store.put("a", new byte[] {1});
            store.close();
            assertThat(store.get("a")).containsExactly(1);
        }
    }

    @Test
    void aWrongSecretKeyIsNamedWithoutShowingIt() throws Exception {
        String secret = "wrong-" + TestS3.env("SKIPPR_TEST_S3_SECRET_KEY");
        S3Connection wrong =
                TestS3.connection().withKeys(TestS3.env("SKIPPR_TEST_S3_ACCESS_KEY"), secret);
        try (S3FileStore store = new S3FileStore(wrong, TestS3.bucket(), "p")) {
            assertThatThrownBy(() -> store.put("k", new byte[1]))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("writing s3://" + TestS3.bucket() + "/p/k failed")
                    .hasMessageContaining("secret access key does not match")
                    .hasMessageNotContaining(secret);
            assertThat(store.describe()).doesNotContain(secret);
            assertThat(wrong.toString()).doesNotContain(secret);
        }
    }

    @Test
    void anUnknownAccessKeyIsNamed() throws Exception {
        S3Connection unknown = TestS3.connection().withKeys("nobody", "whatever-secret");
        try (S3FileStore store = new S3FileStore(unknown, TestS3.bucket(), "p")) {
            assertThatThrownBy(() -> store.list(""))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("access key id is not known")
                    .hasMessageNotContaining("whatever-secret");
        }
    }

    @Test
    void aMissingBucketIsNamed() throws Exception {
        try (S3FileStore store =
                new S3FileStore(TestS3.connection(), "no-such-bucket-skippr", "p")) {
            assertThatThrownBy(() -> store.stage(file("x", 10), "t/x"))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("starting the upload of s3://no-such-bucket-skippr/p/t/x")
                    .hasMessageContaining("bucket 'no-such-bucket-skippr' does not exist");
            assertThat(local.resolve("x")).as("nothing lost: the local file stays").exists();
        }
    }

    @Test
    void anUnreachableEndpointIsNamed() throws Exception {
        String endpoint = "http://127.0.0.1:" + TestPorts.closed();
        S3Connection nowhere = S3Connection.of("us-east-1", endpoint, true).withKeys("a", "b");
        try (S3FileStore store = new S3FileStore(nowhere, "bucket", "")) {
            assertThatThrownBy(() -> store.get("k"))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("reading s3://bucket/k failed")
                    .hasMessageContaining("S3 at " + endpoint + " could not be reached");
        }
    }

    @Test
    void aTokenFromAnotherStoreIsRefusedClearly() {
        try (S3FileStore store = (S3FileStore) open()) {
            assertThatThrownBy(() -> store.publish(new FileStore.Staged("t/x", "/tmp/staged/1")))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("is not an S3 multipart token");
        }
    }
}
