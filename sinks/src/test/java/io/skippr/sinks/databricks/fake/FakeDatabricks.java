package io.skippr.sinks.databricks.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.skippr.sinks.testing.IdleConnections;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A Databricks workspace for tests: the SQL Statement Execution API and the Files API on Unity
 * Catalog volumes, as the public REST docs define their JSON, on a loopback port over plain HTTP,
 * behind a bearer token. A fresh database of the test PostgreSQL ({@code SKIPPR_TEST_PG_*}) holds
 * the catalogs, schemas and Delta tables; a temporary folder holds the volumes. It has one SQL
 * warehouse ({@link #WAREHOUSE_ID}) and the catalog {@code main} with schema {@code default}. What
 * each statement does, and what is refused, is in this package's README.
 */
public final class FakeDatabricks implements AutoCloseable {
    /** The one SQL warehouse's id, for {@code warehouse_id}. */
    public static final String WAREHOUSE_ID = "fake0warehouse01";

    private final HttpServer http;
    private final ExecutorService requests = Executors.newCachedThreadPool();
    private final ExecutorService statements = Executors.newCachedThreadPool();
    private final String pgDatabase;
    private final Path volumes;
    private final String token;
    private final IdleConnections connections;
    private final StatementApi statementApi;
    private final FilesApi filesApi;

    private FakeDatabricks() throws IOException, SQLException {
        pgDatabase =
                "skippr_dbx_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        token = "dapi" + HexFormat.of().formatHex(randomBytes());
        volumes = Files.createTempDirectory("fake-databricks-volumes");
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE " + pgDatabase);
        }
        UnityCatalog catalog = new UnityCatalog(volumes);
        try (Connection c = pg(pgDatabase)) {
            UnityCatalog.create(c);
            catalog.createCatalog(c, "main", false);
        } catch (DatabricksError e) {
            throw new IllegalStateException(e);
        }
        // server-side prepared statements off: a connection outlives a statement's DDL, and a
        // statement prepared before an ALTER TABLE would fail with "cached plan must not change
        // result type", which a new connection per statement never saw (see IdleConnections)
        connections = new IdleConnections(() -> pg(pgDatabase, "&prepareThreshold=0"));
        statementApi = new StatementApi(WAREHOUSE_ID, catalog, connections, statements);
        filesApi = new FilesApi(catalog, connections);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.setExecutor(requests);
        http.createContext("/", this::handle);
        http.start();
    }

    private static byte[] randomBytes() {
        byte[] b = new byte[16];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }

    /**
     * A new workspace on a free loopback port, with a database of its own in the test PostgreSQL.
     */
    public static FakeDatabricks start() throws IOException, SQLException {
        return new FakeDatabricks();
    }

    /** The workspace URL ({@code http://127.0.0.1:<port>}), as a host setting would hold it. */
    public String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    /** The personal access token the workspace accepts as {@code Authorization: Bearer}. */
    public String token() {
        return token;
    }

    /** A connection to the backing PostgreSQL database, to look behind the fake. */
    public Connection backing() throws SQLException {
        return pg(pgDatabase);
    }

    /**
     * The name a table or column named {@code name} has in the backing database: in lower case, and
     * under a 63-byte stand-in when longer than PostgreSQL keeps (see the README).
     */
    public static String backingName(String name) {
        return UnityCatalog.standIn(UnityCatalog.fold(name));
    }

    /** The Databricks name of a backing table's or column's name ({@link #backingName}). */
    public static String databricksName(String backingName) {
        return UnityCatalog.original(backingName);
    }

    /** Statements pending or running now. */
    public long running() {
        return statementApi.running();
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the fake Databricks needs the PostgreSQL server that"
                            + " scripts/test starts; run it through scripts/test");
        }
        return value;
    }

    private static Connection pg(String database) throws SQLException {
        return pg(database, "");
    }

    private static Connection pg(String database, String options) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://"
                        + env("SKIPPR_TEST_PG_HOST")
                        + ":"
                        + env("SKIPPR_TEST_PG_PORT")
                        + "/"
                        + database
                        + "?sslmode=disable&stringtype=unspecified"
                        + options,
                env("SKIPPR_TEST_PG_USER"),
                env("SKIPPR_TEST_PG_PASSWORD"));
    }

    private void handle(HttpExchange exchange) throws IOException {
        Reply reply;
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        try {
            byte[] body = exchange.getRequestBody().readAllBytes();
            reply = authorize(exchange);
            if (reply == null) {
                reply = route(exchange, method, path, body);
            }
            if (reply == null) {
                reply =
                        Reply.error(
                                404,
                                "ENDPOINT_NOT_FOUND",
                                "No API found for '" + method + " " + path + "'");
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            reply =
                    Reply.error(
                            400,
                            "MALFORMED_REQUEST",
                            "Invalid JSON given in the body of the request");
        } catch (Exception e) {
            reply = Reply.error(500, "INTERNAL_ERROR", "fake Databricks failed: " + e);
        }
        reply.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
        boolean noBody = reply.body() == null || method.equals("HEAD");
        if (noBody) {
            // HEAD keeps the Content-Length of the body it does not send
            exchange.sendResponseHeaders(reply.status(), -1);
            exchange.close();
            return;
        }
        exchange.sendResponseHeaders(reply.status(), reply.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply.body());
        }
    }

    /**
     * Databricks' answers to a request without a usable token: 401 when none was sent, 403 {@code
     * Invalid access token.} when it is not the workspace's (both with a numeric {@code
     * error_code}, as Databricks sends them).
     */
    private Reply authorize(HttpExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth == null || !auth.startsWith("Bearer ")) {
            ObjectNode body = Reply.JSON.createObjectNode();
            body.put("error_code", 401);
            body.put(
                    "message",
                    "Credential was not sent or was of an unsupported type for this API.");
            return Reply.json(401, body);
        }
        if (!auth.substring("Bearer ".length()).equals(token)) {
            ObjectNode body = Reply.JSON.createObjectNode();
            body.put("error_code", 403);
            body.put("message", "Invalid access token.");
            Reply r = Reply.json(403, body);
            r.headers().put("X-Databricks-Reason-Phrase", "Invalid access token.");
            return r;
        }
        return null;
    }

    private Reply route(HttpExchange exchange, String method, String path, byte[] body)
            throws Exception {
        if (path.equals("/api/2.0/sql/statements") || path.startsWith("/api/2.0/sql/statements/")) {
            JsonNode json =
                    body.length == 0 ? Reply.JSON.createObjectNode() : Reply.JSON.readTree(body);
            return statementApi.handle(method, path, json);
        }
        if (path.startsWith("/api/2.0/fs/files/") || path.startsWith("/api/2.0/fs/directories/")) {
            return filesApi.handle(
                    method,
                    path,
                    query(exchange.getRequestURI().getRawQuery()),
                    exchange.getRequestHeaders(),
                    body);
        }
        return null;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    query.put(
                            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return query;
    }

    @Override
    public void close() throws SQLException, IOException {
        http.stop(0);
        requests.shutdownNow();
        statements.shutdownNow();
        connections.close();
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + pgDatabase + " WITH (FORCE)");
        }
        UnityCatalog.deleteTree(volumes);
    }
}
