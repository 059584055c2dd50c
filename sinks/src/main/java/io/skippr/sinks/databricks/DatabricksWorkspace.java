package io.skippr.sinks.databricks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.skippr.config.Secret;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Databricks workspace's two REST APIs as the sink calls them, with the JDK's HTTP client and a
 * bearer token: the SQL Statement Execution API ({@code /api/2.0/sql/statements}) on one SQL
 * warehouse, and the Files API on Unity Catalog volumes ({@code /api/2.0/fs/files/Volumes/…}). The
 * token travels in the job graph as a {@link Secret} (its reference, never its value) and is only
 * sent in the {@code Authorization} header: {@link #toString()} and every message name the endpoint
 * and the warehouse.
 *
 * @param endpoint the workspace URL, {@code https://<server_hostname>} unless overridden
 * @param warehouseId the SQL warehouse (the last segment of its HTTP path)
 * @param token the personal access token (or an OAuth access token)
 */
public record DatabricksWorkspace(String endpoint, String warehouseId, Secret token)
        implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMinutes(2);

    /** How long a statement may run before the sink cancels it and fails. */
    static final Duration STATEMENT_LIMIT = Duration.ofHours(2);

    /** The workspace of {@code serverHostname} (or {@code endpoint}) and {@code httpPath}. */
    public static DatabricksWorkspace of(
            String serverHostname, String httpPath, Secret token, String endpoint) {
        String url = endpoint != null ? endpoint : "https://" + serverHostname;
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        String path =
                httpPath.endsWith("/") ? httpPath.substring(0, httpPath.length() - 1) : httpPath;
        String id = path.substring(path.lastIndexOf('/') + 1);
        if (id.isEmpty()) {
            throw new IllegalArgumentException(
                    "http_path " + httpPath + " names no SQL warehouse (/sql/1.0/warehouses/<id>)");
        }
        return new DatabricksWorkspace(url, id, token);
    }

    /** A statement's result: column names and types, and its rows as text (JSON_ARRAY). */
    record Result(List<String> names, List<String> types, List<List<String>> rows) {}

    /**
     * Runs {@code sql} with {@code parameters} (named markers {@code :p1} …, each a value and a
     * Databricks type) in {@code catalog}, waiting for its end; a failed statement is an {@link
     * SQLException} with Databricks' message and SQL state.
     */
    Result execute(String sql, List<String[]> parameters, String catalog, String schema)
            throws SQLException {
        ObjectNode body = JSON.createObjectNode();
        body.put("statement", sql);
        body.put("warehouse_id", warehouseId);
        if (catalog != null) {
            body.put("catalog", catalog);
        }
        if (schema != null) {
            body.put("schema", schema);
        }
        body.put("wait_timeout", "50s");
        body.put("on_wait_timeout", "CONTINUE");
        body.put("disposition", "INLINE");
        body.put("format", "JSON_ARRAY");
        if (!parameters.isEmpty()) {
            ArrayNode list = body.putArray("parameters");
            for (String[] p : parameters) {
                ObjectNode n = list.addObject().put("name", p[0]).put("type", p[2]);
                if (p[1] != null) {
                    n.put("value", p[1]);
                }
            }
        }
        JsonNode reply = send("POST", "/api/2.0/sql/statements", body.toString());
        long deadline = System.nanoTime() + STATEMENT_LIMIT.toNanos();
        while (true) {
            String state = reply.path("status").path("state").asText();
            switch (state) {
                case "SUCCEEDED" -> {
                    return result(reply);
                }
                case "FAILED", "CANCELED", "CLOSED" -> throw failed(reply, state);
                case "PENDING", "RUNNING" -> {
                    String id = reply.path("statement_id").asText();
                    if (System.nanoTime() > deadline) {
                        send("POST", "/api/2.0/sql/statements/" + id + "/cancel", "{}");
                        throw new SQLException(
                                "the statement ran longer than "
                                        + STATEMENT_LIMIT.toHours()
                                        + " hours and was cancelled",
                                "57014");
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
                    reply = send("GET", "/api/2.0/sql/statements/" + id, null);
                }
                default -> throw new SQLException("unexpected statement state " + state, "08006");
            }
        }
    }

    private Result result(JsonNode reply) throws SQLException {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        for (JsonNode column : reply.path("manifest").path("schema").path("columns")) {
            names.add(column.path("name").asText());
            types.add(column.path("type_text").asText(column.path("type_name").asText()));
        }
        List<List<String>> rows = new ArrayList<>();
        JsonNode result = reply.path("result");
        String id = reply.path("statement_id").asText();
        int chunks = reply.path("manifest").path("total_chunk_count").asInt(1);
        for (int chunk = 0; ; chunk++) {
            for (JsonNode row : result.path("data_array")) {
                List<String> values = new ArrayList<>();
                for (JsonNode v : row) {
                    values.add(v.isNull() ? null : v.asText());
                }
                rows.add(values);
            }
            if (chunk + 1 >= chunks) {
                break;
            }
            result =
                    send(
                            "GET",
                            "/api/2.0/sql/statements/" + id + "/result/chunks/" + (chunk + 1),
                            null);
        }
        return new Result(names, types, rows);
    }

    private static SQLException failed(JsonNode reply, String state) {
        JsonNode status = reply.path("status");
        String message = status.path("error").path("message").asText("statement " + state);
        String sqlState = status.path("sql_state").asText(null);
        if (state.equals("CANCELED")) {
            sqlState = "57014";
        }
        return new SQLException(message, sqlState);
    }

    /** Uploads {@code file} to {@code volumePath} ({@code /Volumes/c/s/v/…}), replacing a file. */
    void upload(String volumePath, Path file) throws IOException {
        files("PUT", volumePath, HttpRequest.BodyPublishers.ofFile(file));
    }

    void upload(String volumePath, byte[] bytes) throws IOException {
        files("PUT", volumePath, HttpRequest.BodyPublishers.ofByteArray(bytes));
    }

    /** The file's bytes; null when there is none. */
    byte[] download(String volumePath) throws IOException {
        HttpResponse<byte[]> r = call("GET", "/api/2.0/fs/files" + encode(volumePath), null);
        if (r.statusCode() == 404) {
            return null;
        }
        check(r, "reading " + volumePath);
        return r.body();
    }

    /** Deletes the file; one already gone is no error. */
    void delete(String volumePath) throws IOException {
        HttpResponse<byte[]> r = call("DELETE", "/api/2.0/fs/files" + encode(volumePath), null);
        if (r.statusCode() != 404) {
            check(r, "deleting " + volumePath);
        }
    }

    /** Deletes the folder if it is empty; a missing or non-empty folder is left as it is. */
    void deleteFolder(String volumePath) throws IOException {
        HttpResponse<byte[]> r =
                call("DELETE", "/api/2.0/fs/directories" + encode(volumePath), null);
        if (r.statusCode() != 404 && r.statusCode() != 409) {
            check(r, "deleting " + volumePath);
        }
    }

    /** The files under folder {@code volumePath}, recursively, as full paths; empty if none. */
    List<String> list(String volumePath) throws IOException {
        List<String> out = new ArrayList<>();
        String token = null;
        do {
            String query =
                    "?page_size=1000"
                            + (token == null
                                    ? ""
                                    : "&page_token="
                                            + URLEncoder.encode(token, StandardCharsets.UTF_8));
            HttpResponse<byte[]> r =
                    call("GET", "/api/2.0/fs/directories" + encode(volumePath) + query, null);
            if (r.statusCode() == 404) {
                return out;
            }
            check(r, "listing " + volumePath);
            JsonNode page = JSON.readTree(r.body());
            for (JsonNode entry : page.path("contents")) {
                String path = entry.path("path").asText();
                if (entry.path("is_directory").asBoolean()) {
                    out.addAll(list(path));
                } else {
                    out.add(path);
                }
            }
            token = page.path("next_page_token").asText(null);
            if (token != null && token.isEmpty()) {
                token = null;
            }
        } while (token != null);
        out.sort(null);
        return out;
    }

    private void files(String method, String volumePath, HttpRequest.BodyPublisher body)
            throws IOException {
        HttpResponse<byte[]> r =
                call(method, "/api/2.0/fs/files" + encode(volumePath) + "?overwrite=true", body);
        check(r, "uploading to " + volumePath);
    }

    private static String encode(String volumePath) {
        StringBuilder out = new StringBuilder();
        for (String part : volumePath.split("/", -1)) {
            if (out.length() > 0 || !part.isEmpty()) {
                out.append('/');
            }
            out.append(URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return out.toString().replace("//", "/");
    }

    private void check(HttpResponse<byte[]> r, String doing) throws IOException {
        if (r.statusCode() / 100 != 2) {
            throw new IOException(doing + " failed: " + error(r) + " (" + this + ")");
        }
    }

    private static String error(HttpResponse<byte[]> r) {
        String body = new String(r.body(), StandardCharsets.UTF_8);
        try {
            JsonNode doc = JSON.readTree(body);
            if (doc.has("message")) {
                return "HTTP "
                        + r.statusCode()
                        + " "
                        + doc.path("error_code").asText()
                        + ": "
                        + doc.path("message").asText();
            }
        } catch (IOException ignored) {
            // not JSON: the status alone
        }
        return "HTTP " + r.statusCode();
    }

    private JsonNode send(String method, String path, String body) throws SQLException {
        HttpResponse<byte[]> r;
        try {
            r =
                    call(
                            method,
                            path,
                            body == null
                                    ? null
                                    : HttpRequest.BodyPublishers.ofString(
                                            body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new SQLException("cannot reach " + endpoint + ": " + e.getMessage(), "08001", e);
        }
        if (r.statusCode() == 401 || r.statusCode() == 403) {
            throw new SQLException(error(r), "28000");
        }
        if (r.statusCode() / 100 != 2) {
            throw new SQLException(
                    error(r), r.statusCode() >= 500 || r.statusCode() == 429 ? "08006" : "42000");
        }
        try {
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new SQLException(
                    "unreadable answer from " + endpoint + ": " + e.getMessage(), "08006");
        }
    }

    private HttpResponse<byte[]> call(String method, String path, HttpRequest.BodyPublisher body)
            throws IOException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(endpoint + path))
                        .timeout(TIMEOUT)
                        .header("Authorization", "Bearer " + token.reveal())
                        .header("User-Agent", "skippr");
        if (body != null) {
            request.header(
                    "Content-Type",
                    path.startsWith("/api/2.0/fs/")
                            ? "application/octet-stream"
                            : "application/json");
        }
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : body);
        try {
            return Client.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while calling " + endpoint, e);
        }
    }

    /** One client per JVM (it is not serializable, and holds a connection pool). */
    private static final class Client {
        static final HttpClient HTTP =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
    }

    /** Whether the failure is one a retry may get past: lost connection, throttling, conflict. */
    static boolean transientState(String sqlState, String message) {
        String m = message == null ? "" : message.toUpperCase(Locale.ROOT);
        return sqlState != null && sqlState.startsWith("08")
                || m.contains("DELTA_CONCURRENT")
                || m.contains("CONCURRENT_APPEND")
                || m.contains("TEMPORARILY_UNAVAILABLE");
    }

    @Override
    public String toString() {
        return "Databricks workspace " + endpoint + ", SQL warehouse " + warehouseId;
    }
}
