package io.skippr.sinks.glue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A fake AWS Glue Data Catalog speaking Glue's real wire protocol (AWS JSON 1.1): {@code POST /}
 * with {@code X-Amz-Target: AWSGlue.<Operation>} and {@code Content-Type:
 * application/x-amz-json-1.1}, JSON bodies in and out, and AWS-style errors ({@code {"__type":
 * "EntityNotFoundException", "Message": …}}, HTTP 400). The official AWS SDK's {@code GlueClient},
 * pointed at {@link #endpoint()}, works against it unchanged; so does Iceberg's {@code
 * GlueCatalog}, which needs the database and table operations and {@code UpdateTable}'s {@code
 * VersionId} (optimistic concurrency: a stale version gets {@code
 * ConcurrentModificationException}).
 *
 * <p>It serves databases (Create, Get, GetDatabases, Update, Delete), tables (Create, Get,
 * GetTables with a name pattern, Update with VersionId and SkipArchive, Delete, GetTableVersions)
 * and partitions (Create, BatchCreate with per-entry errors, Get, GetPartitions with {@code key =
 * 'value'} filters, BatchGet, Delete), keeping each input verbatim. A request field or a field of
 * an input that it does not model ({@code TransactionId}, {@code OpenTableFormatInput}, a table's
 * {@code TargetTable} …), another {@code CatalogId}, an {@code x-amz-} header it does not read, or
 * a {@code Content-Encoding}, is refused with an error the SDK raises. Requests must carry a SigV4
 * {@code Authorization} header, which is checked for its shape, not verified. State lives in
 * memory; tests read it through {@link #databases()}, {@link #tables}, {@link #table}, {@link
 * #partitions} and {@link #calls()}.
 *
 * <p>Listens on 127.0.0.1 and a free port, so other processes (the conformance kit's {@code
 * skipprd} runs) reach it too.
 */
public final class FakeGlueServer implements AutoCloseable {
    private static final String JSON_11 = "application/x-amz-json-1.1";
    private static final String TARGET_PREFIX = "AWSGlue.";

    /**
     * The {@code x-amz-} headers of a signed JSON 1.1 request, which the fake reads or may ignore;
     * any other one is refused rather than ignored.
     */
    private static final Set<String> NEUTRAL_HEADERS =
            Set.of(
                    "x-amz-target",
                    "x-amz-date",
                    "x-amz-security-token",
                    "x-amz-content-sha256",
                    "x-amz-user-agent");

    private final ObjectMapper json = new ObjectMapper();
    private final FakeGlueCatalog catalog = new FakeGlueCatalog();
    private final List<String> calls = new ArrayList<>();
    private final Map<String, Runnable> beforeNext = new HashMap<>();
    private final ExecutorService executor;
    private final HttpServer server;

    private FakeGlueServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        executor =
                Executors.newFixedThreadPool(
                        8,
                        r -> {
                            Thread t = new Thread(r, "fake-glue");
                            t.setDaemon(true);
                            return t;
                        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A new, empty catalog served on 127.0.0.1 and a free port. */
    public static FakeGlueServer start() {
        try {
            return new FakeGlueServer();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the fake Glue server", e);
        }
    }

    /** The URL to give a Glue client as its endpoint: {@code http://127.0.0.1:<port>}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The databases' names, sorted. */
    public List<String> databases() {
        return catalog.databaseNames();
    }

    /** The names of a database's tables, sorted; empty if there is no such database. */
    public List<String> tables(String database) {
        return catalog.tableNames(database);
    }

    /** A table as GetTable returns it (its {@code TableInput} and Glue's additions). */
    public Optional<JsonNode> table(String database, String table) {
        return catalog.table(database, table);
    }

    /** The value lists of a table's partitions, in the order they were created. */
    public List<List<String>> partitions(String database, String table) {
        return catalog.partitionValues(database, table);
    }

    /**
     * Asserts that Glue would lead a reader of the table to each of {@code files} (full URIs such
     * as {@code s3://bucket/lake/orders/dt=2026-11-29/f.parquet}): the file is under the table's
     * {@code Location}, in the Hive-style folders of the table's partition keys ({@code
     * dt=2026-11-29/}), and the partition with those values is registered with its {@code Location}
     * at exactly the folder that holds the file. Athena reads a partition's files from its {@code
     * Location} alone, so a partition registered anywhere else reads as empty.
     *
     * @throws AssertionError naming the first file a reader would not find
     */
    public void assertPartitionsHold(String database, String table, List<String> files) {
        JsonNode definition =
                table(database, table)
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                "Glue holds no table " + database + "." + table));
        String root = folder(definition.path("StorageDescriptor").path("Location").asText(""));
        List<String> keys = new ArrayList<>();
        definition.path("PartitionKeys").forEach(k -> keys.add(k.path("Name").asText()));
        for (String file : files) {
            String folder = file.substring(0, file.lastIndexOf('/') + 1);
            if (root.equals("/") || !folder.startsWith(root)) {
                throw new AssertionError(
                        file + " is not under the Location " + root + " of Glue table " + table);
            }
            String[] parts = folder.substring(root.length()).split("/");
            List<String> values = new ArrayList<>();
            for (int i = 0; i < keys.size(); i++) {
                String part = i < parts.length ? parts[i] : "";
                if (!part.startsWith(keys.get(i) + "=")) {
                    throw new AssertionError(
                            file + " is not in a " + keys + " partition folder under " + root);
                }
                values.add(part.substring(keys.get(i).length() + 1));
            }
            if (parts.length != keys.size() && !(keys.isEmpty() && folder.equals(root))) {
                throw new AssertionError(
                        file + " is not directly in a " + keys + " partition folder of " + root);
            }
            if (keys.isEmpty()) {
                continue;
            }
            JsonNode partition =
                    catalog.partition(database, table, values)
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    "Glue has no partition "
                                                            + values
                                                            + " of table "
                                                            + table
                                                            + " for "
                                                            + file));
            String location = partition.path("StorageDescriptor").path("Location").asText("");
            if (!folder(location).equals(folder)) {
                throw new AssertionError(
                        "Glue's partition "
                                + values
                                + " of table "
                                + table
                                + " reads "
                                + location
                                + ", but its file "
                                + file
                                + " is in "
                                + folder);
            }
        }
    }

    private static String folder(String location) {
        return location.endsWith("/") ? location : location + "/";
    }

    /**
     * Every request so far, in order of arrival: the operation, and for a failed one {@code " -> "}
     * and the error type, such as {@code UpdateTable -> ConcurrentModificationException}.
     */
    public List<String> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /**
     * Runs {@code action} once, just before the next {@code operation} request is served (and after
     * that request arrived): for tests that need another client to act between a reader's GetTable
     * and its UpdateTable, as a concurrent writer would. The action may call this server.
     */
    public void beforeNext(String operation, Runnable action) {
        synchronized (beforeNext) {
            beforeNext.put(operation, action);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String operation = "?";
        try (exchange) {
            String target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
            if (target != null && target.startsWith(TARGET_PREFIX)) {
                operation = target.substring(TARGET_PREFIX.length());
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            ObjectNode response;
            try {
                checkRequest(exchange, target);
                Runnable action;
                synchronized (beforeNext) {
                    action = beforeNext.remove(operation);
                }
                if (action != null) {
                    action.run();
                }
                response = catalog.call(operation, parse(body));
            } catch (GlueFault fault) {
                record(operation + " -> " + fault.type());
                ObjectNode error = json.createObjectNode();
                error.put("__type", fault.type());
                error.put("Message", fault.getMessage());
                exchange.getResponseHeaders().add("x-amzn-ErrorType", fault.type());
                send(exchange, 400, error);
                return;
            }
            record(operation);
            send(exchange, 200, response);
        } catch (RuntimeException e) {
            record(operation + " -> InternalServiceException");
            throw e;
        }
    }

    private void checkRequest(HttpExchange exchange, String target) {
        if (!"POST".equals(exchange.getRequestMethod())
                || !"/".equals(exchange.getRequestURI().getPath())) {
            throw new GlueFault(
                    "UnknownOperationException",
                    "Glue takes POST / requests, not "
                            + exchange.getRequestMethod()
                            + " "
                            + exchange.getRequestURI().getPath());
        }
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth == null) {
            throw new GlueFault(
                    "MissingAuthenticationTokenException", "Missing Authentication Token");
        }
        if (!auth.startsWith("AWS4-HMAC-SHA256 ")
                || !auth.contains("Credential=")
                || !auth.contains("SignedHeaders=")
                || !auth.contains("Signature=")) {
            throw new GlueFault(
                    "IncompleteSignatureException",
                    "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature'"
                            + " parameters (AWS4-HMAC-SHA256)");
        }
        for (String header : exchange.getRequestHeaders().keySet()) {
            String name = header.toLowerCase(Locale.ROOT);
            if (name.startsWith("x-amz-") && !NEUTRAL_HEADERS.contains(name)) {
                throw new GlueFault(
                        "InvalidInputException",
                        "FakeGlueServer does not model the header " + name);
            }
        }
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        if (encoding != null && !encoding.equalsIgnoreCase("identity")) {
            throw new GlueFault(
                    "SerializationException",
                    "FakeGlueServer does not model Content-Encoding: " + encoding);
        }
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        if (type == null || !type.startsWith(JSON_11)) {
            throw new GlueFault(
                    "SerializationException", "Content-Type must be " + JSON_11 + ": " + type);
        }
        if (target == null || !target.startsWith(TARGET_PREFIX)) {
            throw new GlueFault(
                    "UnknownOperationException",
                    "X-Amz-Target must be AWSGlue.<Operation>: " + target);
        }
    }

    private JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return json.createObjectNode();
        }
        try {
            JsonNode node = json.readTree(body);
            if (!node.isObject()) {
                throw new GlueFault("SerializationException", "the request body is not an object");
            }
            return node;
        } catch (IOException e) {
            throw new GlueFault("SerializationException", "the request body is not JSON");
        }
    }

    private void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = json.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", JSON_11);
        exchange.getResponseHeaders().add("x-amzn-RequestId", UUID.randomUUID().toString());
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private void record(String call) {
        synchronized (calls) {
            calls.add(call);
        }
    }
}
