package io.skippr.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * Takes a savepoint of the job a {@code skipprd sync} runs, through its embedded Flink's REST API
 * (as {@code flink savepoint} and {@code flink stop} do on a cluster), in the canonical format,
 * which a later version of Skippr and Flink restores.
 */
public final class Savepoints {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private Savepoints() {}

    /**
     * Triggers a savepoint of {@code running} into the pipeline's savepoint folder and waits for
     * it; with {@code stop}, the job ends with it (its sinks commit what it holds first). Returns
     * the savepoint's location.
     *
     * @throws IOException when Flink cannot be reached, or names why the savepoint failed
     */
    public static String take(
            RunningJob running,
            boolean stop,
            org.apache.flink.core.fs.Path folder,
            Duration timeout)
            throws IOException, InterruptedException {
        String job = running.rest() + "/jobs/" + running.job();
        Map<String, Object> body =
                stop
                        ? Map.of("drain", false, "formatType", "CANONICAL")
                        : Map.of("cancel-job", false, "formatType", "CANONICAL");
        JsonNode trigger = send(post(job + (stop ? "/stop" : "/savepoints"), body));
        String request = trigger.path("request-id").asText();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode state;
            try {
                state = send(HttpRequest.newBuilder(URI.create(job + "/savepoints/" + request)));
            } catch (java.net.ConnectException e) {
                // a stop completes as the job ends, and the sync then ends with its Flink: the
                // savepoint is the job's newest in the pipeline's folder
                if (!stop) {
                    throw e;
                }
                return Checkpoints.newest(java.util.List.of(folder))
                        .map(Object::toString)
                        .filter(p -> p.contains("/savepoint-" + running.job().substring(0, 6)))
                        .orElseThrow(
                                () ->
                                        new IOException(
                                                "the sync ended before it said where the savepoint"
                                                        + " is, and "
                                                        + folder
                                                        + " holds none of its job",
                                                e));
            }
            if ("COMPLETED".equals(state.path("status").path("id").asText())) {
                JsonNode operation = state.path("operation");
                if (operation.hasNonNull("location")) {
                    return operation.path("location").asText();
                }
                throw new IOException(
                        "the savepoint failed: "
                                + operation
                                        .path("failure-cause")
                                        .path("stack-trace")
                                        .asText(operation.toString())
                                        .lines()
                                        .findFirst()
                                        .orElse(""));
            }
            if (System.nanoTime() > deadline) {
                throw new IOException(
                        "the savepoint was not complete within " + timeout.toSeconds() + " s");
            }
            Thread.sleep(200);
        }
    }

    private static HttpRequest.Builder post(String uri, Map<String, Object> body)
            throws IOException {
        return HttpRequest.newBuilder(URI.create(uri))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
    }

    private static JsonNode send(HttpRequest.Builder request)
            throws IOException, InterruptedException {
        HttpResponse<String> response =
                HTTP.send(
                        request.timeout(Duration.ofSeconds(30)).build(),
                        HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() >= 300) {
            throw new IOException(
                    "Flink answered "
                            + response.statusCode()
                            + " to "
                            + response.request().uri()
                            + ": "
                            + body.path("errors")
                                    .path(0)
                                    .asText(response.body())
                                    .lines()
                                    .findFirst()
                                    .orElse(""));
        }
        return body;
    }
}
