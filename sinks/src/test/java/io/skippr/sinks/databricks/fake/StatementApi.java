package io.skippr.sinks.databricks.fake;

import com.fasterxml.jackson.databind.JsonNode;
import io.skippr.sinks.databricks.fake.PostgresText.Parameter;
import io.skippr.sinks.databricks.fake.UnityCatalog.Defaults;
import io.skippr.sinks.testing.IdleConnections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL Statement Execution API ({@code /api/2.0/sql/statements}): execute with {@code
 * wait_timeout} ({@code 0s}, or 5 to 50 seconds, default 10) and {@code on_wait_timeout} ({@code
 * CONTINUE} or {@code CANCEL}), get, cancel and chunk 0 of a result. Results are {@code INLINE}
 * {@code JSON_ARRAY}; {@code EXTERNAL_LINKS}, other formats and {@code byte_limit} are refused.
 */
final class StatementApi {
    private static final Pattern WAIT = Pattern.compile("(\\d+)s");
    private static final Set<String> FIELDS =
            Set.of(
                    "statement",
                    "warehouse_id",
                    "catalog",
                    "schema",
                    "parameters",
                    "wait_timeout",
                    "on_wait_timeout",
                    "disposition",
                    "format",
                    "row_limit",
                    "byte_limit",
                    "query_tags");

    private final String warehouseId;
    private final UnityCatalog catalog;
    private final IdleConnections backing;
    private final ExecutorService threads;
    private final Map<String, StatementRun> runs = new ConcurrentHashMap<>();

    StatementApi(
            String warehouseId,
            UnityCatalog catalog,
            IdleConnections backing,
            ExecutorService threads) {
        this.warehouseId = warehouseId;
        this.catalog = catalog;
        this.backing = backing;
        this.threads = threads;
    }

    /** Statements not ended yet. */
    long running() {
        return runs.values().stream()
                .filter(r -> Set.of("PENDING", "RUNNING").contains(r.state()))
                .count();
    }

    Reply handle(String method, String path, JsonNode body) throws InterruptedException {
        String rest = path.substring("/api/2.0/sql/statements".length());
        if (rest.isEmpty() || rest.equals("/")) {
            return method.equals("POST") ? execute(body) : null;
        }
        String[] parts = rest.substring(1).split("/");
        StatementRun run = runs.get(parts[0]);
        if (run == null) {
            return Reply.error(404, "NOT_FOUND", "The statement " + parts[0] + " was not found.");
        }
        if (parts.length == 1 && method.equals("GET")) {
            return Reply.json(200, run.response());
        }
        if (parts.length == 2 && parts[1].equals("cancel") && method.equals("POST")) {
            run.cancel();
            return Reply.json(200, Reply.JSON.createObjectNode());
        }
        if (parts.length == 4
                && parts[1].equals("result")
                && parts[2].equals("chunks")
                && method.equals("GET")) {
            JsonNode chunk =
                    parts[3].matches("\\d+") ? run.chunk(Integer.parseInt(parts[3])) : null;
            return chunk == null
                    ? Reply.error(
                            400,
                            "INVALID_PARAMETER_VALUE",
                            "The statement has no result chunk " + parts[3] + ".")
                    : Reply.json(200, chunk);
        }
        return null;
    }

    private Reply execute(JsonNode body) throws InterruptedException {
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!FIELDS.contains(field)) {
                return Reply.error(
                        400, "INVALID_PARAMETER_VALUE", "Unknown field in the request: " + field);
            }
        }
        if (!body.path("statement").isTextual() || body.path("statement").asText().isBlank()) {
            return Reply.error(400, "INVALID_PARAMETER_VALUE", "statement is required.");
        }
        if (!warehouseId.equals(body.path("warehouse_id").asText())) {
            return Reply.error(
                    404,
                    "RESOURCE_DOES_NOT_EXIST",
                    "Warehouse " + body.path("warehouse_id").asText() + " does not exist.");
        }
        long wait = 10;
        if (body.has("wait_timeout")) {
            Matcher m = WAIT.matcher(body.path("wait_timeout").asText());
            wait = m.matches() ? Long.parseLong(m.group(1)) : -1;
            if (wait != 0 && (wait < 5 || wait > 50)) {
                return Reply.error(
                        400,
                        "INVALID_PARAMETER_VALUE",
                        "wait_timeout must be 0s or between 5s and 50s, not "
                                + body.path("wait_timeout").asText()
                                + ".");
            }
        }
        String onTimeout = body.path("on_wait_timeout").asText("CONTINUE");
        if (!Set.of("CONTINUE", "CANCEL").contains(onTimeout)) {
            return Reply.error(
                    400,
                    "INVALID_PARAMETER_VALUE",
                    "on_wait_timeout " + onTimeout + " is invalid.");
        }
        if (!body.path("disposition").asText("INLINE").equals("INLINE")) {
            return Reply.notImplemented("disposition " + body.path("disposition").asText());
        }
        if (!body.path("format").asText("JSON_ARRAY").equals("JSON_ARRAY")) {
            return Reply.notImplemented("format " + body.path("format").asText());
        }
        if (body.has("byte_limit")) {
            return Reply.notImplemented("byte_limit");
        }
        long rowLimit = body.has("row_limit") ? body.path("row_limit").asLong() : -1;
        Map<String, Parameter> parameters = new HashMap<>();
        for (JsonNode p : body.path("parameters")) {
            String type = p.path("type").isTextual() ? p.path("type").asText() : null;
            String value =
                    p.path("value").isNull() || p.path("value").isMissingNode()
                            ? null
                            : p.path("value").asText();
            parameters.put(p.path("name").asText(), new Parameter(value, type));
        }
        Defaults defaults =
                new Defaults(
                        UnityCatalog.fold(body.path("catalog").asText("main")),
                        UnityCatalog.fold(body.path("schema").asText("default")));
        String sql = body.path("statement").asText();
        StatementRun run = new StatementRun(UUID.randomUUID().toString());
        runs.put(run.id, run);
        threads.submit(
                () ->
                        run.execute(
                                backing,
                                c ->
                                        new SqlStatement(
                                                        c,
                                                        catalog,
                                                        defaults,
                                                        parameters,
                                                        rowLimit,
                                                        run::cancelRequested)
                                                .run(sql)));
        if (wait > 0 && !run.await(wait) && onTimeout.equals("CANCEL")) {
            run.cancel();
            run.await(60);
        }
        return Reply.json(200, run.response());
    }
}
