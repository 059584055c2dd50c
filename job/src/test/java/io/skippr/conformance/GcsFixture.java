package io.skippr.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.config.catalog.Guarantee;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.gcs.FakeGcsServer;
import io.skippr.sinks.gcs.GcsFileStore;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The GCS sink against Skippr's fake of the GCS JSON API ({@link FakeGcsServer} from the sinks
 * module's test-jar, in the test JVM, its objects on disk, reached over HTTP on 127.0.0.1, also by
 * {@code skipprd} processes): no GCS emulator can be had here. A bucket per fixture; the plain-http
 * local endpoint means no credentials, and closing checks that none were sent during the test.
 */
final class GcsFixture extends FileStoreFixture {
    private static final String PREFIX = "lake/raw";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final FakeGcsServer server = FakeGcsServer.get();
    private final String bucket = "skippr-kit-" + UUID.randomUUID().toString().substring(0, 8);

    GcsFixture(String format) throws Exception {
        super(format);
        server.resetCounters(); // one fixture per test: count only this test's requests
        server.createBucket(bucket);
    }

    @Override
    public String kind() {
        return "GCS";
    }

    @Override
    public Guarantee guarantee() {
        return Guarantee.EXACTLY_ONCE;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    GCS:\n      bucket: "
                + bucket
                + "\n      prefix: "
                + PREFIX
                + "\n      endpoint: "
                + server.endpoint()
                + "\n      format: "
                + format
                + "\n";
    }

    /**
     * The bucket's objects, listed page by page through the JSON API, as {@code gsutil ls} does.
     */
    @Override
    List<String> list(Path dir, String prefix) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<String> keys = new ArrayList<>();
        String token = null;
        do {
            String url =
                    server.endpoint()
                            + "/storage/v1/b/"
                            + bucket
                            + "/o?prefix="
                            + URLEncoder.encode(PREFIX + "/" + prefix, StandardCharsets.UTF_8)
                            + (token == null
                                    ? ""
                                    : "&pageToken="
                                            + URLEncoder.encode(token, StandardCharsets.UTF_8));
            HttpResponse<String> response =
                    http.send(
                            HttpRequest.newBuilder(URI.create(url)).GET().build(),
                            HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("listing " + url + ": " + response.body());
            }
            JsonNode page = JSON.readTree(response.body());
            page.path("items")
                    .forEach(o -> keys.add(o.path("name").asText().substring(PREFIX.length() + 1)));
            token = page.path("nextPageToken").asText(null);
        } while (token != null);
        return keys.stream().sorted().toList();
    }

    @Override
    FileStore store(Path dir) {
        return new GcsFileStore(bucket, PREFIX, null, null, server.endpoint());
    }

    @Override
    public void close() {
        if (server.requestsWithCredentials() > 0) {
            throw new IllegalStateException(
                    server.requestsWithCredentials()
                            + " requests to the fake GCS server carried credentials");
        }
    }
}
