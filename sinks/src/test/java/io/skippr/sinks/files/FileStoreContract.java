package io.skippr.sinks.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link FileStore} does, against its real server (or the documented fake): a store's
 * test is a one-line subclass that opens a store on a fresh root.
 */
public abstract class FileStoreContract {
    @TempDir protected Path local;
    private FileStore store;

    /** A store on a root of its own (a new prefix or folder per call). */
    protected abstract FileStore open() throws Exception;

    @BeforeEach
    void start() throws Exception {
        store = open();
    }

    @AfterEach
    void stop() throws Exception {
        store.close();
    }

    private Path file(String name, int bytes) throws IOException {
        byte[] data = new byte[bytes];
        new Random(bytes).nextBytes(data);
        Path f = local.resolve(name);
        Files.write(f, data);
        return f;
    }

    /** A store as a task receives it: serialized on the client, deserialized elsewhere. */
    private FileStore shipped() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(store);
        }
        try (ObjectInputStream in =
                new ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return (FileStore) in.readObject();
        }
    }

    @Test
    void aStagedFileIsInvisibleUntilPublishedThenWhole() throws Exception {
        Path f = file("a.parquet", 3 * 1024 * 1024 + 17);
        byte[] expected = Files.readAllBytes(f);
        FileStore.Staged staged = store.stage(f, "orders/a.parquet");
        assertThat(store.exists("orders/a.parquet")).isFalse();
        assertThat(store.list("orders/")).isEmpty();

        assertThat(store.publish(staged)).isTrue();
        assertThat(store.exists("orders/a.parquet")).isTrue();
        assertThat(store.get("orders/a.parquet")).isEqualTo(expected);
        assertThat(store.list("orders/")).containsExactly("orders/a.parquet");
    }

    @Test
    void publishingTwiceIsANoOp() throws Exception {
        FileStore.Staged staged = store.stage(file("b.jsonl", 1000), "t/b.jsonl");
        assertThat(store.publish(staged)).isTrue();
        assertThat(store.publish(staged)).as("a replayed commit").isFalse();
        assertThat(store.list("t/")).containsExactly("t/b.jsonl");
    }

    /**
     * A publish never replaces a committed object: a different staged file under a committed name
     * (a name used twice) fails, naming it, and the committed file stays as it was.
     */
    @Test
    void publishingOverADifferentCommittedFileFailsAndLeavesItIntact() throws Exception {
        Path first = file("e1", 1000);
        byte[] committed = Files.readAllBytes(first);
        assertThat(store.publish(store.stage(first, "t/e.jsonl"))).isTrue();
        FileStore.Staged other = store.stage(file("e2", 2000), "t/e.jsonl");

        assertThatThrownBy(() -> store.publish(other))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("e.jsonl");
        assertThat(store.get("t/e.jsonl")).isEqualTo(committed);
        assertThat(store.list("t/")).containsExactly("t/e.jsonl");
    }

    /** A commit replayed after a crash, by another process from the handle alone, is a no-op. */
    @Test
    void aReplayedPublishOfTheSameStagedFileSucceedsAsANoOp() throws Exception {
        Path f = file("r", 70_000);
        byte[] expected = Files.readAllBytes(f);
        FileStore.Staged staged = store.stage(f, "t/r.jsonl");
        assertThat(store.publish(staged)).isTrue();
        try (FileStore restored = shipped()) {
            assertThat(restored.publish(new FileStore.Staged(staged.key(), staged.token())))
                    .as("a replayed commit")
                    .isFalse();
        }
        assertThat(store.get("t/r.jsonl")).isEqualTo(expected);
        assertThat(store.list("t/")).containsExactly("t/r.jsonl");
    }

    @Test
    void anotherProcessPublishesFromTheHandleAlone() throws Exception {
        byte[] expected = Files.readAllBytes(file("c.csv", 70_000));
        FileStore.Staged staged = store.stage(local.resolve("c.csv"), "t/c.csv");
        try (FileStore restored = shipped()) {
            assertThat(restored.publish(new FileStore.Staged(staged.key(), staged.token())))
                    .isTrue();
            assertThat(restored.get("t/c.csv")).isEqualTo(expected);
        }
    }

    @Test
    void anEmptyFilePublishes() throws Exception {
        FileStore.Staged staged = store.stage(file("empty", 0), "t/empty");
        assertThat(store.publish(staged)).isTrue();
        assertThat(store.get("t/empty")).isEmpty();
    }

    @Test
    void discardedOrAbandonedStagingNeverAppears() throws Exception {
        FileStore.Staged discarded = store.stage(file("d1", 100), "t/d1");
        store.discard(discarded);
        store.discard(discarded); // twice is fine
        FileStore.Staged abandoned = store.stage(file("d2", 100), "t/d2"); // left by a crash
        store.discardStaged("d2");
        assertThat(store.list("")).isEmpty();
        assertThatThrownBy(() -> store.publish(abandoned))
                .as("staging discarded for good")
                .isInstanceOf(IOException.class)
                .hasMessageContaining("t/d2");
        assertThatThrownBy(() -> store.publish(discarded))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("t/d1");
    }

    /** Two pipelines share a folder or prefix: one's start never discards the other's staging. */
    @Test
    void discardingOnePipelinesStagingLeavesAnothersAlone() throws Exception {
        FileStore.Staged mine = store.stage(file("m", 100), "t/orders-000002-000-000000.jsonl");
        FileStore.Staged theirs = store.stage(file("n", 100), "t/refunds-000007-001-000003.jsonl");

        store.discardStaged("orders");

        assertThat(store.publish(theirs)).isTrue();
        assertThat(store.list("")).containsExactly("t/refunds-000007-001-000003.jsonl");
        assertThatThrownBy(() -> store.publish(mine))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("t/orders-000002-000-000000.jsonl");
    }

    @Test
    void smallObjectsAreWrittenReadListedAndDeleted() throws Exception {
        store.put("_skippr/commits/1.json", "{\"a\":1}".getBytes(StandardCharsets.UTF_8));
        store.put("_skippr/commits/2.json", "{}".getBytes(StandardCharsets.UTF_8));
        store.put("_skippr/commits/1.json", "{\"a\":2}".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(store.get("_skippr/commits/1.json"), StandardCharsets.UTF_8))
                .isEqualTo("{\"a\":2}");
        assertThat(store.list("_skippr/"))
                .containsExactly("_skippr/commits/1.json", "_skippr/commits/2.json");
        store.delete("_skippr/commits/1.json");
        store.delete("_skippr/commits/1.json");
        assertThat(store.list("_skippr/")).containsExactly("_skippr/commits/2.json");
        assertThatThrownBy(() -> store.get("_skippr/commits/1.json"))
                .isInstanceOf(NoSuchFileException.class);
    }

    @Test
    void keysWithSpacesUnicodeAndDepthRoundTrip() throws Exception {
        String key = "Order Items ünï/dt=2026-11-29/p-000001-000-000000.parquet";
        assertThat(store.publish(store.stage(file("u", 10), key))).isTrue();
        Path back = local.resolve("back");
        store.download(key, back);
        assertThat(Files.size(back)).isEqualTo(10);
        assertThat(store.list("Order Items ünï/")).isEqualTo(List.of(key));
        assertThat(store.list("Order")).isEqualTo(List.of(key));
    }
}
