package io.skippr.sinks.gcs;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.NoCredentials;
import com.google.cloud.WriteChannel;
import com.google.cloud.storage.BlobId;
import com.google.cloud.storage.BlobInfo;
import com.google.cloud.storage.Storage;
import com.google.cloud.storage.StorageOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link FakeGcsServer} answers on the wire, beyond what {@link GcsFileStore} asks: the
 * official client's chunked resumable upload, GCS's refusals (a wrong CRC32C, a failed generation
 * precondition, a missing bucket) as JSON error documents, and a plain 501 for what it does not
 * implement. A server of its own on a temporary folder.
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
