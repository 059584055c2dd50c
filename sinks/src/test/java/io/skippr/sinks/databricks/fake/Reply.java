package io.skippr.sinks.databricks.fake;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** An HTTP answer of the fake: a status, headers and a body (JSON, bytes or none). */
record Reply(int status, Map<String, String> headers, byte[] body) {
    static final ObjectMapper JSON = new ObjectMapper();

    static Reply json(int status, JsonNode node) {
        try {
            return new Reply(
                    status,
                    new LinkedHashMap<>(Map.of("Content-Type", "application/json")),
                    JSON.writeValueAsBytes(node));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A reply without a body ({@code 204 No Content} for the Files API's writes). */
    static Reply empty(int status) {
        return new Reply(status, new LinkedHashMap<>(), null);
    }

    /** Databricks' REST error body: {@code {"error_code": "...", "message": "..."}}. */
    static Reply error(int status, String errorCode, String message) {
        ObjectNode body = JSON.createObjectNode();
        body.put("error_code", errorCode);
        body.put("message", message);
        return json(status, body);
    }

    /** What the fake does not implement of a request: 501, never a silent success. */
    static Reply notImplemented(String what) {
        return error(501, "NOT_IMPLEMENTED", what + " is not implemented by the fake Databricks.");
    }
}
