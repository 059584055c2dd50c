package io.skippr.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;

/**
 * A change-data-capture source's lag, as {@code skipprd sync}'s progress line shows it: the gauges
 * {@code skippr.slotLagBytes} and {@code skippr.replicationLagSeconds} of the running job's source,
 * read through the embedded cluster's REST API (the highest over its subtasks), as fresh as Flink's
 * metric fetcher keeps them. Empty for a source without them.
 */
public final class ReplicationLagGauges {
    private static final String BYTES = "skippr.slotLagBytes";
    private static final String SECONDS = "skippr.replicationLagSeconds";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A source's lag: bytes of WAL not yet confirmed, and seconds behind the server's commits. */
    public record Lag(long bytes, long seconds) {}

    private ReplicationLagGauges() {}

    /** The lag of the job {@code graph} runs on the cluster at {@code rest}; empty without one. */
    static Optional<Lag> read(String rest, AccessExecutionGraph graph) {
        try {
            for (AccessExecutionJobVertex vertex : graph.getVerticesTopologically()) {
                String metrics =
                        rest
                                + "/jobs/"
                                + graph.getJobID()
                                + "/vertices/"
                                + vertex.getJobVertexId()
                                + "/subtasks/metrics";
                List<String> ids = new ArrayList<>();
                for (JsonNode metric : get(metrics)) {
                    String id = metric.path("id").asText();
                    if (id.endsWith(BYTES) || id.endsWith(SECONDS)) {
                        ids.add(id);
                    }
                }
                if (ids.size() < 2) {
                    continue;
                }
                long bytes = -1;
                long seconds = -1;
                String query = URLEncoder.encode(String.join(",", ids), StandardCharsets.UTF_8);
                for (JsonNode value : get(metrics + "?agg=max&get=" + query)) {
                    long max = (long) value.path("max").asDouble(-1);
                    if (value.path("id").asText().endsWith(BYTES)) {
                        bytes = max;
                    } else {
                        seconds = max;
                    }
                }
                return Optional.of(new Lag(bytes, seconds));
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // the next look tries again
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.empty();
    }

    private static JsonNode get(String uri) throws IOException, InterruptedException {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(uri))
                                .timeout(Duration.ofSeconds(2))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode() + " from " + uri);
        }
        return JSON.readTree(response.body());
    }
}
