package io.skippr.sinks.bigquery.fake;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An error as BigQuery's REST API sends it: HTTP status, {@code error.code}, {@code error.message},
 * {@code error.errors[0].reason} ({@code invalidQuery}, {@code notFound}, {@code duplicate}, {@code
 * invalid}) and {@code error.status}.
 */
final class BigQueryError extends Exception {
    final int code;
    final String reason;
    final String status;

    BigQueryError(int code, String reason, String status, String message) {
        super(message);
        this.code = code;
        this.reason = reason;
        this.status = status;
    }

    static BigQueryError invalidQuery(String message) {
        return new BigQueryError(400, "invalidQuery", "INVALID_ARGUMENT", message);
    }

    static BigQueryError invalid(String message) {
        return new BigQueryError(400, "invalid", "INVALID_ARGUMENT", message);
    }

    static BigQueryError notFound(String message) {
        return new BigQueryError(404, "notFound", "NOT_FOUND", message);
    }

    static BigQueryError duplicate(String message) {
        return new BigQueryError(409, "duplicate", "ALREADY_EXISTS", message);
    }

    static BigQueryError notImplemented(String message) {
        return new BigQueryError(
                501,
                "notImplemented",
                "UNIMPLEMENTED",
                "The fake BigQuery does not implement " + message);
    }

    byte[] body(ObjectMapper json) {
        ObjectNode root = json.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("code", code);
        error.put("message", getMessage());
        ObjectNode e = error.putArray("errors").addObject();
        e.put("message", getMessage());
        e.put("domain", "global");
        e.put("reason", reason);
        error.put("status", status);
        return root.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
