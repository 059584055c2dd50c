package io.skippr.sinks.snowflake.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import org.duckdb.DuckDBConnection;

/**
 * A Snowflake account for tests, speaking the HTTP/JSON protocol of the official JDBC driver
 * ({@code net.snowflake:snowflake-jdbc}) on a loopback port, backed by a fresh database of the test
 * PostgreSQL ({@code SKIPPR_TEST_PG_*}) and stages in the test S3Proxy ({@code SKIPPR_TEST_S3_*}).
 *
 * <p>It has one database ({@link #DATABASE}) with schema {@code PUBLIC}, and the users added with
 * {@link #addUser(String, String)} (password) or {@link #addUser(String, PublicKey)} (key pair).
 * Endpoints: login, token renewal, heartbeat, session close, query and abort. What each statement
 * does, and what is refused, is in this package's README.
 */
public final class FakeSnowflake implements AutoCloseable {
    /** The account name the driver must send ({@code account} connection property). */
    public static final String ACCOUNT = "FAKE";

    /** The one database, as Snowflake names it. */
    public static final String DATABASE = "SKIPPR_TEST";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer http;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String pgDatabase;
    final Stages stages;

    /**
     * The in-memory DuckDB that reads staged Parquet files for {@code COPY}: started once (a start
     * costs about half a second), with a connection of its own per load ({@link #duckDb()}).
     */
    private final DuckDBConnection duckDb;

    private final Map<String, String> passwords = new ConcurrentHashMap<>();
    private final Map<String, PublicKey> keys = new ConcurrentHashMap<>();
    private final Map<String, FakeSession> sessions = new ConcurrentHashMap<>();

    /**
     * Backing connections of closed sessions, rolled back, for the next logins: the driver logs in
     * for every PUT, LIST and REMOVE of the sinks, and a new connection costs a PostgreSQL login.
     */
    private final Queue<Connection> idleBacking = new ConcurrentLinkedQueue<>();

    private final AtomicLong ids = new AtomicLong(1000);
    private final java.util.concurrent.atomic.AtomicInteger heartbeats =
            new java.util.concurrent.atomic.AtomicInteger();

    private FakeSnowflake() throws IOException, SQLException {
        pgDatabase = "skippr_sf_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE " + pgDatabase);
        }
        try (Connection c = pg(pgDatabase);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"PUBLIC\"");
            st.execute("CREATE SCHEMA \"_fake\"");
            st.execute(
                    "CREATE TABLE \"_fake\".stages (schema_name text, stage_name text,"
                            + " PRIMARY KEY (schema_name, stage_name))");
            st.execute(
                    "CREATE TABLE \"_fake\".load_history (schema_name text, table_name text,"
                            + " file_key text, etag text, loaded_at timestamptz DEFAULT now())");
            InformationSchema.create(st, DATABASE);
            SnowflakeFunctions.create(st);
        }
        stages = new Stages(pgDatabase);
        duckDb = DriverManager.getConnection("jdbc:duckdb:").unwrap(DuckDBConnection.class);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.setExecutor(threads);
        http.createContext("/", this::handle);
        http.start();
    }

    /** A new account on a free loopback port, with a database of its own in the test PostgreSQL. */
    public static FakeSnowflake start() throws IOException, SQLException {
        return new FakeSnowflake();
    }

    public FakeSnowflake addUser(String user, String password) {
        passwords.put(user.toUpperCase(Locale.ROOT), password);
        return this;
    }

    public FakeSnowflake addUser(String user, PublicKey publicKey) {
        keys.put(user.toUpperCase(Locale.ROOT), publicKey);
        return this;
    }

    /** The JDBC URL (plain HTTP on loopback); pass {@link #properties} with it. */
    public String url() {
        return "jdbc:snowflake://127.0.0.1:" + http.getAddress().getPort() + "/?ssl=off";
    }

    /**
     * The connection properties for {@code user}: account, database, schema PUBLIC, warehouse,
     * role, and no cloud platform detection.
     */
    public Properties properties(String user) {
        Properties p = new Properties();
        p.setProperty("account", ACCOUNT);
        p.setProperty("user", user);
        p.setProperty("db", DATABASE);
        p.setProperty("schema", "PUBLIC");
        p.setProperty("warehouse", "FAKE_WH");
        p.setProperty("role", "FAKE_ROLE");
        // without it the driver probes cloud instance metadata (169.254.169.254) at every login
        p.setProperty("disablePlatformDetection", "true");
        return p;
    }

    /**
     * The name a schema, table or column named {@code name} has in the backing database: itself, or
     * its 63-byte stand-in when longer than PostgreSQL keeps (see the README).
     */
    public static String backingName(String name) {
        return BackingNames.standIn(name);
    }

    /**
     * The Snowflake name of a backing schema's, table's or column's name ({@link #backingName}).
     */
    public static String snowflakeName(String backingName) {
        return BackingNames.original(backingName);
    }

    /** A connection to the backing PostgreSQL database, to look behind the fake. */
    public Connection backing() throws SQLException {
        return pg(pgDatabase);
    }

    private Connection sessionBacking() throws SQLException {
        Connection c = idleBacking.poll();
        return c != null ? c : pg(pgDatabase);
    }

    /** A closed session's backing connection, for the next login. */
    void release(Connection backing) throws SQLException {
        if (!backing.getAutoCommit()) {
            backing.rollback();
            backing.setAutoCommit(true);
        }
        idleBacking.add(backing);
    }

    /** Whether a statement of any session is being run now. */
    public boolean running() {
        return sessions.values().stream().anyMatch(s -> s.runningRequestId() != null);
    }

    /** The sessions open now. */
    public int sessions() {
        return sessions.size();
    }

    /** How many heartbeats the sessions have sent. */
    public int heartbeats() {
        return heartbeats.get();
    }

    /** A new connection to the fake's DuckDB, for one {@code COPY}'s file. */
    Connection duckDb() throws SQLException {
        return duckDb.duplicate();
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    String nextQueryId() {
        return UUID.randomUUID().toString();
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the fake Snowflake needs the PostgreSQL and S3Proxy servers"
                            + " that scripts/test starts; run it through scripts/test");
        }
        return value;
    }

    private static Connection pg(String database) throws SQLException {
        return DriverManager.getConnection(
                "jdbc:postgresql://"
                        + env("SKIPPR_TEST_PG_HOST")
                        + ":"
                        + env("SKIPPR_TEST_PG_PORT")
                        + "/"
                        + database
                        + "?sslmode=disable&stringtype=unspecified",
                env("SKIPPR_TEST_PG_USER"),
                env("SKIPPR_TEST_PG_PASSWORD"));
    }

    private void handle(HttpExchange exchange) throws IOException {
        ObjectNode response;
        int status = 200;
        try {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
            JsonNode body = body(exchange);
            response =
                    switch (path) {
                        case "/session/v1/login-request" -> login(query, body);
                        case "/session/token-request" -> renew(exchange, body);
                        case "/session/heartbeat" -> heartbeat(exchange);
                        case "/session" ->
                                "true".equals(query.get("delete"))
                                        ? closeSession(exchange)
                                        : notFound(path);
                        case "/queries/v1/query-request" -> query(exchange, body);
                        case "/queries/v1/abort-request" -> abort(exchange, body);
                        case "/telemetry/send" -> ok(JSON.createObjectNode());
                        default -> notFound(path);
                    };
            if (response.has("_status")) {
                status = response.remove("_status").asInt();
            }
        } catch (Exception e) {
            response = failure("200001", "fake Snowflake failed: " + e);
            status = 500;
        }
        byte[] bytes = JSON.writeValueAsBytes(response);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
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

    private static JsonNode body(HttpExchange exchange) throws IOException {
        InputStream in = exchange.getRequestBody();
        if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
            in = new GZIPInputStream(in);
        }
        byte[] bytes = in.readAllBytes();
        return bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
    }

    private static ObjectNode ok(JsonNode data) {
        ObjectNode r = JSON.createObjectNode();
        r.put("success", true);
        r.putNull("code");
        r.putNull("message");
        r.set("data", data);
        return r;
    }

    private static ObjectNode failure(String code, String message) {
        ObjectNode r = JSON.createObjectNode();
        r.put("success", false);
        r.put("code", code);
        r.put("message", message);
        r.putNull("data");
        return r;
    }

    private static ObjectNode notFound(String path) {
        ObjectNode r = failure("390404", "fake Snowflake has no endpoint " + path);
        r.put("_status", 404);
        return r;
    }

    /** A name Snowflake resolves from a connection property: quoted as is, else upper case. */
    private static String folded(String name) {
        if (name == null || name.isEmpty()) {
            return null;
        }
        return name.startsWith("\"") && name.endsWith("\"") && name.length() > 1
                ? name.substring(1, name.length() - 1)
                : name.toUpperCase(Locale.ROOT);
    }

    private ObjectNode login(Map<String, String> query, JsonNode body) throws SQLException {
        JsonNode data = body.path("data");
        String account = data.path("ACCOUNT_NAME").asText("").toUpperCase(Locale.ROOT);
        String user = data.path("LOGIN_NAME").asText("").toUpperCase(Locale.ROOT);
        String authenticator = data.path("AUTHENTICATOR").asText("SNOWFLAKE");
        boolean known;
        if (authenticator.equals("SNOWFLAKE_JWT")) {
            PublicKey key = keys.get(user);
            known = key != null && JwtLogin.valid(data.path("TOKEN").asText(), account, user, key);
            if (!known) {
                return failure("390144", "JWT token is invalid.");
            }
        } else if (authenticator.equals("SNOWFLAKE")) {
            known = data.path("PASSWORD").asText("").equals(passwords.get(user));
        } else {
            return failure(
                    "390100",
                    "fake Snowflake: authenticator " + authenticator + " is not implemented.");
        }
        if (!ACCOUNT.equals(account) || !known) {
            return failure("390100", "Incorrect username or password was specified.");
        }
        String database = folded(query.get("databaseName"));
        if (database != null && !database.equals(DATABASE)) {
            return failure("390201", "The requested database does not exist or not authorized.");
        }
        String schema = folded(query.get("schemaName"));
        String warehouse = folded(query.get("warehouse"));
        String role = folded(query.get("roleName"));
        String token = "fake-session-" + UUID.randomUUID();
        String master = "fake-master-" + UUID.randomUUID();
        FakeSession session =
                new FakeSession(
                        this,
                        nextId(),
                        token,
                        master,
                        user,
                        sessionBacking(),
                        DATABASE,
                        schema == null ? "PUBLIC" : schema,
                        warehouse,
                        role);
        sessions.put(token, session);
        ObjectNode out = JSON.createObjectNode();
        out.put("token", token);
        out.put("masterToken", master);
        out.put("validityInSeconds", 3600);
        out.put("masterValidityInSeconds", 14400);
        out.put("sessionId", session.id);
        out.put("serverVersion", "9.0.0-fake");
        out.putNull("idToken");
        out.putNull("mfaToken");
        var params = out.putArray("parameters");
        params.addObject().put("name", "AUTOCOMMIT").put("value", true);
        params.addObject().put("name", "TIMEZONE").put("value", "UTC");
        params.addObject().put("name", "CLIENT_SESSION_KEEP_ALIVE").put("value", false);
        params.addObject().put("name", "JDBC_QUERY_RESULT_FORMAT").put("value", "JSON");
        ObjectNode info = out.putObject("sessionInfo");
        info.put("databaseName", DATABASE);
        info.put("schemaName", session.schema());
        info.put("warehouseName", warehouse);
        info.put("roleName", role);
        return ok(out);
    }

    private FakeSession session(HttpExchange exchange) {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth == null) {
            return null;
        }
        int at = auth.indexOf("Token=\"");
        if (at < 0) {
            return null;
        }
        String token = auth.substring(at + 7, auth.indexOf('"', at + 7));
        return sessions.get(token);
    }

    private static ObjectNode expired() {
        return failure("390112", "Your session has expired. Please login again.");
    }

    private ObjectNode renew(HttpExchange exchange, JsonNode body) {
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        String old = body.path("oldSessionToken").asText();
        FakeSession session = sessions.get(old);
        if (session == null || auth == null || !auth.contains(session.masterToken)) {
            return expired();
        }
        // the fake's tokens do not expire: the renewed token is the old one
        ObjectNode data = JSON.createObjectNode();
        data.put("sessionToken", session.token);
        data.put("validityInSecondsST", 3600);
        data.put("masterToken", session.masterToken);
        data.put("validityInSecondsMT", 14400);
        data.put("sessionId", session.id);
        return ok(data);
    }

    private ObjectNode heartbeat(HttpExchange exchange) {
        if (session(exchange) == null) {
            return expired();
        }
        heartbeats.incrementAndGet();
        return ok(JSON.createObjectNode());
    }

    private ObjectNode closeSession(HttpExchange exchange) throws SQLException {
        FakeSession session = session(exchange);
        if (session == null) {
            return expired();
        }
        sessions.remove(session.token);
        session.close();
        return ok(JSON.nullNode());
    }

    private ObjectNode query(HttpExchange exchange, JsonNode body) {
        FakeSession session = session(exchange);
        if (session == null) {
            return expired();
        }
        String requestId = query(exchange.getRequestURI().getRawQuery()).get("requestId");
        String queryId = nextQueryId();
        try {
            ObjectNode data =
                    session.execute(
                            body.path("sqlText").asText(),
                            body.path("bindings"),
                            requestId,
                            queryId);
            if (!data.has("queryId")) {
                data.put("queryId", queryId);
            }
            return ok(data);
        } catch (SnowflakeError e) {
            String code = String.format("%06d", e.code);
            ObjectNode r = failure(code, e.getMessage());
            ObjectNode data = r.putObject("data");
            data.put("sqlState", e.sqlState);
            data.put("errorCode", code);
            data.put("queryId", queryId);
            data.put("internalError", false);
            return r;
        }
    }

    private ObjectNode abort(HttpExchange exchange, JsonNode body) throws SQLException {
        FakeSession session = session(exchange);
        if (session == null) {
            return expired();
        }
        if (!session.abort(body.path("requestId").asText())) {
            return failure("000605", "Identified SQL statement is not currently executing.");
        }
        return ok(JSON.nullNode());
    }

    @Override
    public void close() throws SQLException {
        http.stop(0);
        threads.shutdownNow();
        for (FakeSession s : sessions.values()) {
            s.close();
        }
        sessions.clear();
        for (Connection c = idleBacking.poll(); c != null; c = idleBacking.poll()) {
            c.close();
        }
        stages.close();
        duckDb.close();
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + pgDatabase + " WITH (FORCE)");
        }
    }
}
