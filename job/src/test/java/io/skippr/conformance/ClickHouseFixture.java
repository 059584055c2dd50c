package io.skippr.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.core.naming.Names;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** The ClickHouse sink, read back over HTTP with FINAL (deduplicated by _skippr_id). */
final class ClickHouseFixture implements SinkFixture {
    @Override
    public String kind() {
        return "ClickHouse";
    }

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private final String database =
            "skippr_kit_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 24);

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the ClickHouse conformance test needs"
                            + " the ClickHouse server that scripts/test starts");
        }
        return value;
    }

    @Override
    public String sinkYaml(Path dir) {
        return "    ClickHouse:\n      host: "
                + env("SKIPPR_TEST_CH_HOST")
                + "\n      port: "
                + env("SKIPPR_TEST_CH_PORT")
                + "\n      database: "
                + database
                + "\n";
    }

    @Override
    public List<Map<String, Object>> rows(Path dir, String stream) throws Exception {
        String body =
                query(
                        "SELECT * FROM `"
                                + database
                                + "`.`"
                                + Names.snake(stream)
                                + "` FINAL FORMAT JSONEachRow");
        ObjectMapper json = new ObjectMapper();
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode node = json.readTree(line);
            Map<String, Object> row = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                JsonNode v = field.getValue();
                row.put(
                        field.getKey(),
                        v.isNull()
                                ? null
                                : field.getKey().equals("id")
                                        ? Long.parseLong(v.asText())
                                        : v.asText());
            }
            rows.add(row);
        }
        return rows;
    }

    private static String query(String sql) throws Exception {
        URI uri =
                URI.create(
                        "http://"
                                + env("SKIPPR_TEST_CH_HOST")
                                + ":"
                                + env("SKIPPR_TEST_CH_PORT")
                                + "/");
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(uri)
                                .POST(HttpRequest.BodyPublishers.ofString(sql))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(response.body());
        }
        return response.body();
    }

    @Override
    public boolean storesExtremeTimestamps() {
        return false;
    }

    @Override
    public void close() throws Exception {
        query("DROP DATABASE IF EXISTS `" + database + "`");
    }
}
