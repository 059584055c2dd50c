package io.skippr.sinks.gcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.NoCredentials;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.BucketInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageClass;
import com.google.cloud.storage.StorageException;
import com.google.cloud.storage.StorageOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link FakeGcsServer} answers on the wire, beyond what {@link GcsFileStore} asks: the
 * official client's chunked resumable upload, GCS's refusals (a wrong CRC32C, a failed generation
 * precondition, a missing bucket) as JSON error documents, and a plain 501 for what it does not
 * implement: a route, a query parameter, a resource field or a header that changes what a request
 * means (an encryption key, a precondition), while the client's own requests pass. A server of its
 * own on a temporary folder.
 */
class FakeGcsServerTest {
    private static final String BUCKET = "fake-test";
    @TempDir static Path folder;
    private static FakeGcsServer server;
    private static Storage storage;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        server = new FakeGcsServer(folder, 1000);
        server.createBucket(BUCKET);
        storage =
                StorageOptions.http()
                        .setHost(server.endpoint())
                        .setProjectId("p")
                        .setCredentials(NoCredentials.getInstance())
                        .build()
                        .getService();
    }

    @AfterAll
    static void stop() throws Exception {
        storage.close();
        server.close();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(String pathAndQuery) {
        return URI.create(server.endpoint() + pathAndQuery);
    }

    @Test
    void aResumableUploadInChunksArrivesWhole() throws Exception {
        byte[] data = new byte[700_000];
        new Random(7).nextBytes(data);
        BlobId id = BlobId.of(BUCKET, "chunks/a b+c.bin");
        try (WriteChannel writer = storage.writer(BlobInfo.newBuilder(id).build())) {
            writer.setChunkSize(256 * 1024); // three PUTs, two answered 308 with a Range
            writer.write(ByteBuffer.wrap(data));
        }
        assertThat(storage.readAllBytes(id)).isEqualTo(data);
        assertThat(storage.get(id).getSize()).isEqualTo(data.length);
    }

    @Test
    void aRangedDownloadGetsThePartAsked() throws Exception {
        storage.create(
                BlobInfo.newBuilder(BlobId.of(BUCKET, "range")).build(),
                "0123456789".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> part =
                send(
                        HttpRequest.newBuilder(
                                        uri("/storage/v1/b/" + BUCKET + "/o/range?alt=media"))
                                .header("Range", "bytes=4-"));
        assertThat(part.statusCode()).isEqualTo(206);
        assertThat(part.body()).isEqualTo("456789");
        assertThat(part.headers().firstValue("Content-Range")).hasValue("bytes 4-9/10");
    }

    @Test
    void aWrongCrc32cIsRefusedAndStoresNothing() throws Exception {
        String boundary = "b0undary";
        String body =
                "--"
                        + boundary
                        + "\r\nContent-Type: application/json\r\n\r\n"
                        + "{\"name\":\"crc\",\"crc32c\":\"AAAAAA==\"}\r\n--"
                        + boundary
                        + "\r\nContent-Type: text/plain\r\n\r\nhello\r\n--"
                        + boundary
                        + "--\r\n";
        HttpResponse<String> response =
                send(
                        HttpRequest.newBuilder(
                                        uri(
                                                "/upload/storage/v1/b/"
                                                        + BUCKET
                                                        + "/o?uploadType=multipart"))
                                .header("Content-Type", "multipart/related; boundary=" + boundary)
                                .POST(HttpRequest.BodyPublishers.ofString(body)));
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"code\":400").contains("CRC32C");
        assertThat(storage.get(BlobId.of(BUCKET, "crc"))).isNull();
    }

    @Test
    void aFailedGenerationPreconditionIsRefusedWith412() throws Exception {
        BlobInfo info = BlobInfo.newBuilder(BlobId.of(BUCKET, "once")).build();
        storage.create(info, new byte[] {1}, Storage.BlobTargetOption.doesNotExist());
        HttpResponse<String> again =
                send(
                        HttpRequest.newBuilder(
                                        uri(
                                                "/upload/storage/v1/b/"
                                                        + BUCKET
                                                        + "/o?uploadType=media&name=once&ifGenerationMatch=0"))
                                .POST(HttpRequest.BodyPublishers.ofString("2")));
        assertThat(again.statusCode()).isEqualTo(412);
        assertThat(again.body()).contains("conditionNotMet");
        assertThat(storage.readAllBytes(info.getBlobId())).containsExactly(1);
    }

    @Test
    void aMissingBucketIsA404ErrorDocument() throws Exception {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(uri("/storage/v1/b/no-such-bucket/o?prefix=x")));
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.body())
                .contains("\"reason\":\"notFound\"")
                .contains("The specified bucket does not exist.");
    }

    @Test
    void whatItDoesNotImplementIsRefusedWith501() throws Exception {
        HttpResponse<String> response =
                send(HttpRequest.newBuilder(uri("/storage/v1/b/" + BUCKET + "/o?delimiter=/")));
        assertThat(response.statusCode()).isEqualTo(501);
        assertThat(response.body()).contains("does not implement the query parameter delimiter");
    }

    /**
     * A customer-supplied encryption key changes what GCS stores and who can read it; the fake does
     * not model it, so it refuses the request and the client raises that, rather than storing the
     * object unencrypted and answering 200.
     */
    @Test
    void anEncryptionKeyIsRefusedAndTheClientRaisesIt() {
        BlobId id = BlobId.of(BUCKET, "encrypted");
        String key = Base64.getEncoder().encodeToString(new byte[32]);
        assertThatThrownBy(
                        () ->
                                storage.create(
                                        BlobInfo.newBuilder(id).build(),
                                        new byte[] {1},
                                        Storage.BlobTargetOption.encryptionKey(key)))
                .isInstanceOfSatisfying(
                        StorageException.class, e -> assertThat(e.getCode()).isEqualTo(501))
                .hasMessageContaining("does not implement the header x-goog-encryption-");
        assertThat(storage.get(id)).as("nothing was stored").isNull();

        storage.create(BlobInfo.newBuilder(id).build(), new byte[] {2});
        assertThatThrownBy(
                        () -> storage.readAllBytes(id, Storage.BlobSourceOption.decryptionKey(key)))
                .isInstanceOfSatisfying(
                        StorageException.class, e -> assertThat(e.getCode()).isEqualTo(501));
    }

    /** Preconditions sent as headers are not modelled (only the query parameters are): refused. */
    @Test
    void preconditionHeadersAreRefused() throws Exception {
        storage.create(
                BlobInfo.newBuilder(BlobId.of(BUCKET, "conditional")).build(), new byte[] {1});
        for (String header : List.of("x-goog-if-generation-match", "if-match", "if-none-match")) {
            HttpResponse<String> response =
                    send(
                            HttpRequest.newBuilder(
                                            uri("/storage/v1/b/" + BUCKET + "/o/conditional"))
                                    .header(header, "1")
                                    .DELETE());
            assertThat(response.statusCode()).as(header).isEqualTo(501);
            assertThat(response.body()).contains("does not implement the header " + header);
        }
        assertThat(storage.readAllBytes(BlobId.of(BUCKET, "conditional")))
                .as("no refused DELETE deleted")
                .containsExactly(1);
    }

    /**
     * A field of an object or bucket resource the fake neither keeps nor checks ({@code
     * contentEncoding}, {@code storageClass}, a bucket's {@code location}) is refused, however it
     * is uploaded, rather than dropped.
     */
    @Test
    void unknownFieldsOfAResourceAreRefusedAndStoreNothing() throws Exception {
        BlobId id = BlobId.of(BUCKET, "gzipped");
        BlobInfo gzipped = BlobInfo.newBuilder(id).setContentEncoding("gzip").build();
        assertThatThrownBy(() -> storage.create(gzipped, new byte[] {1}))
                .isInstanceOfSatisfying(
                        StorageException.class, e -> assertThat(e.getCode()).isEqualTo(501))
                .hasMessageContaining("does not implement the field contentEncoding of an object");
        assertThatThrownBy(
                        () -> {
                            try (WriteChannel writer = storage.writer(gzipped)) {
                                writer.write(ByteBuffer.wrap(new byte[] {1}));
                            }
                        })
                .hasStackTraceContaining("contentEncoding");
        assertThat(storage.get(id)).as("nothing was stored").isNull();

        storage.create(BlobInfo.newBuilder(BlobId.of(BUCKET, "plain")).build(), new byte[] {1});
        assertThatThrownBy(
                        () ->
                                storage.copy(
                                                Storage.CopyRequest.newBuilder()
                                                        .setSource(BlobId.of(BUCKET, "plain"))
                                                        .setTarget(
                                                                BlobInfo.newBuilder(id)
                                                                        .setStorageClass(
                                                                                StorageClass
                                                                                        .ARCHIVE)
                                                                        .build())
                                                        .build())
                                        .getResult())
                .isInstanceOfSatisfying(
                        StorageException.class, e -> assertThat(e.getCode()).isEqualTo(501))
                .hasMessageContaining("the field storageClass of an object");
        assertThat(storage.get(id)).as("nothing was copied").isNull();

        assertThatThrownBy(
                        () ->
                                storage.create(
                                        BucketInfo.newBuilder("eu-only").setLocation("EU").build()))
                .isInstanceOfSatisfying(
                        StorageException.class, e -> assertThat(e.getCode()).isEqualTo(501))
                .hasMessageContaining("the field location of a bucket");
        assertThat(storage.get("eu-only")).isNull();
    }

    /**
     * What {@link GcsFileStore} does through the official client (uploads from a file and from
     * bytes, a create only if absent, get, copy, list, read, delete at a generation) is not
     * refused: the strictness above leaves the real path alone.
     */
    @Test
    void theOfficialClientsRequestsAsTheStoreSendsThemAreServed(@TempDir Path local)
            throws Exception {
        Path file = Files.write(local.resolve("f"), "file".getBytes(StandardCharsets.UTF_8));
        BlobId staged = BlobId.of(BUCKET, "real/_staging/x");
        BlobId target = BlobId.of(BUCKET, "real/a.parquet");
        storage.createFrom(BlobInfo.newBuilder(staged).build(), file);
        storage.create(
                BlobInfo.newBuilder(BlobId.of(BUCKET, "real/log")).build(),
                new byte[] {7},
                Storage.BlobTargetOption.doesNotExist());
        assertThat(storage.get(staged)).isNotNull();
        storage.copy(Storage.CopyRequest.newBuilder().setSource(staged).setTarget(target).build())
                .getResult();
        assertThat(storage.delete(staged)).isTrue();
        List<String> names = new ArrayList<>();
        storage.list(BUCKET, Storage.BlobListOption.prefix("real/"))
                .iterateAll()
                .forEach(b -> names.add(b.getName()));
        assertThat(names).containsExactly("real/a.parquet", "real/log");
        assertThat(new String(storage.readAllBytes(target), StandardCharsets.UTF_8))
                .isEqualTo("file");
        long generation = storage.get(target).getGeneration();
        assertThat(
                        storage.delete(
                                BlobId.of(BUCKET, "real/a.parquet", generation),
                                Storage.BlobSourceOption.generationMatch()))
                .isTrue();
    }

    @Test
    void itsObjectsLiveInItsFolderAndOutliveTheServer() throws Exception {
        BlobId id = BlobId.of(BUCKET, "durable");
        storage.create(BlobInfo.newBuilder(id).build(), new byte[] {4, 2});
        try (FakeGcsServer second = new FakeGcsServer(folder, 1000);
                Storage other =
                        StorageOptions.http()
                                .setHost(second.endpoint())
                                .setProjectId("p")
                                .setCredentials(NoCredentials.getInstance())
                                .build()
                                .getService()) {
            assertThat(other.readAllBytes(id)).containsExactly(4, 2);
        }
    }

    @Test
    void itRunsAsAProcessOfItsOwnOnAFolder(@TempDir Path own) throws Exception {
        Process process =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                FakeGcsServer.class.getName(),
                                own.toString())
                        .redirectError(ProcessBuilder.Redirect.INHERIT)
                        .start();
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String endpoint = out.readLine();
            assertThat(endpoint).startsWith("http://127.0.0.1:");
            HttpResponse<String> bucket =
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(endpoint + "/storage/v1/b?project=p"))
                                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"own\"}"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertThat(bucket.statusCode()).isEqualTo(200);
            try (Storage other =
                    StorageOptions.http()
                            .setHost(endpoint)
                            .setProjectId("p")
                            .setCredentials(NoCredentials.getInstance())
                            .build()
                            .getService()) {
                other.create(BlobInfo.newBuilder(BlobId.of("own", "x")).build(), new byte[] {5});
                assertThat(other.readAllBytes(BlobId.of("own", "x"))).containsExactly(5);
            }
        } finally {
            process.destroyForcibly().waitFor();
        }
        assertThat(own.resolve("own")).isDirectory();
    }

    /**
     * The counters are the shared server's: one test's credentials must not fail every later test,
     * so a reset starts them afresh, and only requests after it count.
     */
    @Test
    void credentialsAreCountedUntilTheCountersAreReset() throws Exception {
        server.resetCounters();
        HttpRequest.Builder withCredentials =
                HttpRequest.newBuilder(uri("/storage/v1/b/" + BUCKET))
                        .header("Authorization", "Bearer not-a-real-token");
        assertThat(send(withCredentials).statusCode()).isEqualTo(200);
        assertThat(server.requestsWithCredentials()).isEqualTo(1);

        server.resetCounters();
        assertThat(server.requestsWithCredentials()).isZero();
        assertThat(send(HttpRequest.newBuilder(uri("/storage/v1/b/" + BUCKET))).statusCode())
                .isEqualTo(200);
        assertThat(server.requestsWithCredentials()).as("a request without credentials").isZero();
        send(withCredentials);
        assertThat(server.requestsWithCredentials()).isEqualTo(1);
    }
}
