package io.skippr.sinks.bigquery.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A BigQuery project for tests, speaking what the official Java clients speak: the REST API
 * (datasets, tables, {@code jobs.query}) over plain HTTP and the Storage Write API's {@code
 * BigQueryWrite} gRPC service ({@link FakeWriteService}), both on loopback ports. A fresh database
 * of the test PostgreSQL ({@code SKIPPR_TEST_PG_*}) holds the datasets (one PostgreSQL schema each)
 * and tables; every query runs in one PostgreSQL transaction, so it commits whole or not at all.
 * What it implements and refuses is in this package's README.
 */
public final class FakeBigQuery implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();

    static {
        // The JDK's HTTP server writes a response's headers and body as two TCP segments; with
        // Nagle's algorithm on, the body waits for the client's delayed ACK of the headers (40 ms
        // on Linux), so every request took ~50 ms, far slower than BigQuery answers a metadata
        // call. The property is read once, when the JVM's first HttpServer starts (the test
        // plugins set it too, for a JVM where another fake's server started first).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private final HttpServer http;
    private final Server grpc;
    private final ExecutorService requests = Executors.newCachedThreadPool();
    private final String pgDatabase;
    private final AtomicLong jobs = new AtomicLong();
    private final AtomicLong queries = new AtomicLong();

    private FakeBigQuery() throws IOException, SQLException {
        pgDatabase = "skippr_bq_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE " + pgDatabase);
        }
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.setExecutor(requests);
        http.createContext("/", this::handle);
        http.start();
        grpc =
                NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                        .addService(timed(new FakeWriteService(this::pooled)))
                        .build()
                        .start();
    }

    /** The Storage Write service, its calls logged with their time at DEBUG. */
    private static io.grpc.ServerServiceDefinition timed(FakeWriteService service) {
        return io.grpc.ServerInterceptors.intercept(
                service,
                new io.grpc.ServerInterceptor() {
                    @Override
                    public <Q, A> io.grpc.ServerCall.Listener<Q> interceptCall(
                            io.grpc.ServerCall<Q, A> call,
                            io.grpc.Metadata headers,
                            io.grpc.ServerCallHandler<Q, A> next) {
                        long t0 = System.nanoTime();
                        String method = call.getMethodDescriptor().getBareMethodName();
                        return next.startCall(
                                new io.grpc.ForwardingServerCall.SimpleForwardingServerCall<>(
                                        call) {
                                    @Override
                                    public void close(
                                            io.grpc.Status status, io.grpc.Metadata trailers) {
                                        TIMING.debug(
                                                "{} {} in {} ms",
                                                method,
                                                status.getCode(),
                                                (System.nanoTime() - t0) / 1_000_000);
                                        super.close(status, trailers);
                                    }
                                },
                                headers);
                    }
                });
    }

    /** A new project on free loopback ports, with a database of its own in the test PostgreSQL. */
    public static FakeBigQuery start() throws IOException, SQLException {
        return new FakeBigQuery();
    }

    /** The REST root URL, as the {@code endpoint} field holds it. */
    /** A BigQuery data sink entry loading {@code dataset} of {@code project} on this fake. */
    public String sinkYaml(String project, String dataset) {
        return "    BigQuery:\n      project_id: "
                + project
                + "\n      dataset: "
                + dataset
                + "\n      endpoint: "
                + url()
                + "\n      write_endpoint: "
                + writeEndpoint()
                + "\n";
    }

    public String url() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    /** The Storage Write API's address, as the {@code write_endpoint} field holds it. */
    public String writeEndpoint() {
        return "http://127.0.0.1:" + grpc.getPort();
    }

    /** Query jobs run so far. */
    public long queries() {
        return queries.get();
    }

    private final java.util.concurrent.ConcurrentLinkedQueue<Connection> idle =
            new java.util.concurrent.ConcurrentLinkedQueue<>();

    /**
     * A connection of the fake's own pool (opening one per request would dominate its time):
     * closing it rolls back what is open, resets auto-commit and keeps it for the next request.
     */
    Connection pooled() throws SQLException {
        Connection raw = idle.poll();
        if (raw == null || !raw.isValid(1)) {
            raw = backing();
        }
        Connection c = raw;
        return (Connection)
                java.lang.reflect.Proxy.newProxyInstance(
                        FakeBigQuery.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (self, m, args) -> {
                            if (m.getName().equals("close")) {
                                try {
                                    if (!c.getAutoCommit()) {
                                        c.rollback();
                                        c.setAutoCommit(true);
                                    }
                                    idle.add(c);
                                } catch (SQLException e) {
                                    c.close();
                                }
                                return null;
                            }
                            try {
                                return m.invoke(c, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
    }

    /** A connection to the backing PostgreSQL database, to look behind the fake. */
    public Connection backing() throws SQLException {
        return pg(pgDatabase);
    }

    /** The backing name of a BigQuery table or column name (a stand-in past 63 bytes). */
    public static String backingName(String name) {
        return Names.standIn(name);
    }

    /** The BigQuery name of a backing table's or column's name. */
    public static String bigQueryName(String backingName) {
        return Names.original(backingName);
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the fake BigQuery needs the PostgreSQL server that"
                            + " scripts/test starts; run it through scripts/test");
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
                        + "?sslmode=disable",
                env("SKIPPR_TEST_PG_USER"),
                env("SKIPPR_TEST_PG_PASSWORD"));
    }

    @Override
    public void close() throws Exception {
        http.stop(0);
        requests.shutdownNow();
        grpc.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        for (Connection c; (c = idle.poll()) != null; ) {
            c.close();
        }
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + pgDatabase + " WITH (FORCE)");
        }
    }

    // ---- HTTP ----

    /** Each request and its handling time, at DEBUG: where a slow test's time goes. */
    private static final org.slf4j.Logger TIMING =
            org.slf4j.LoggerFactory.getLogger(FakeBigQuery.class);

    private void handle(HttpExchange exchange) throws IOException {
        long t0 = System.nanoTime();
        String what = "";
        int status;
        byte[] body;
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        try {
            byte[] in = exchange.getRequestBody().readAllBytes();
            if ("gzip"
                    .equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                in =
                        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(in))
                                .readAllBytes();
            }
            JsonNode json = in.length == 0 ? JSON.createObjectNode() : JSON.readTree(in);
            what = json.path("query").asText("");
            what = what.substring(0, Math.min(90, what.length()));
            JsonNode reply =
                    route(method, path, query(exchange.getRequestURI().getRawQuery()), json);
            status = reply == null ? 204 : 200;
            body = reply == null ? null : JSON.writeValueAsBytes(reply);
        } catch (BigQueryError e) {
            status = e.code;
            body = e.body(JSON);
        } catch (Exception e) {
            BigQueryError error =
                    new BigQueryError(
                            500, "internalError", "INTERNAL", "fake BigQuery failed: " + e);
            status = error.code;
            body = error.body(JSON);
        }
        if (TIMING.isDebugEnabled()) {
            TIMING.debug(
                    "{} {} {} in {} ms {}",
                    method,
                    path,
                    status,
                    (System.nanoTime() - t0) / 1_000_000,
                    what);
        }
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null) {
            return out;
        }
        for (String part : raw.split("&")) {
            int eq = part.indexOf('=');
            String k =
                    URLDecoder.decode(
                            eq < 0 ? part : part.substring(0, eq), StandardCharsets.UTF_8);
            String v =
                    eq < 0 ? "" : URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8);
            out.put(k, v);
        }
        return out;
    }

    private JsonNode route(String method, String path, Map<String, String> params, JsonNode body)
            throws Exception {
        String prefix = "/bigquery/v2/projects/";
        if (!path.startsWith(prefix)) {
            throw BigQueryError.notImplemented(method + " " + path);
        }
        String[] p = path.substring(prefix.length()).split("/");
        for (int i = 0; i < p.length; i++) {
            p[i] = URLDecoder.decode(p[i], StandardCharsets.UTF_8);
        }
        String project = p[0];
        if (p.length == 2 && p[1].equals("queries") && method.equals("POST")) {
            return runQuery(project, body);
        }
        if (p.length == 2 && p[1].equals("datasets") && method.equals("POST")) {
            return insertDataset(project, body);
        }
        if (p.length == 3 && p[1].equals("datasets") && method.equals("GET")) {
            return getDataset(project, p[2]);
        }
        if (p.length == 4 && p[1].equals("datasets") && p[3].equals("tables")) {
            if (method.equals("GET")) {
                return listTables(project, p[2]);
            }
            if (method.equals("POST")) {
                return insertTable(project, p[2], body);
            }
        }
        if (p.length == 5 && p[1].equals("datasets") && p[3].equals("tables")) {
            if (method.equals("GET")) {
                return getTable(project, p[2], p[4]);
            }
            if (method.equals("DELETE")) {
                deleteTable(project, p[2], p[4]);
                return null;
            }
        }
        throw BigQueryError.notImplemented(method + " " + path);
    }

    // ---- datasets ----

    private ObjectNode dataset(String project, String dataset) {
        ObjectNode d = JSON.createObjectNode();
        d.put("kind", "bigquery#dataset");
        d.put("id", project + ":" + dataset);
        d.putObject("datasetReference").put("projectId", project).put("datasetId", dataset);
        d.put("location", "US");
        return d;
    }

    private boolean datasetExists(Connection c, String dataset) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement("SELECT 1 FROM pg_namespace WHERE nspname = ?")) {
            st.setString(1, Names.standIn(dataset));
            try (ResultSet rs = st.executeQuery()) {
                return rs.next();
            }
        }
    }

    private JsonNode getDataset(String project, String dataset) throws Exception {
        try (Connection c = pooled()) {
            if (!datasetExists(c, dataset)) {
                throw BigQueryError.notFound("Not found: Dataset " + project + ":" + dataset);
            }
            return dataset(project, dataset);
        }
    }

    private JsonNode insertDataset(String project, JsonNode body) throws Exception {
        String dataset = body.path("datasetReference").path("datasetId").asText();
        String location = body.path("location").asText("US");
        if (!location.equalsIgnoreCase("US")) {
            throw BigQueryError.invalid("The fake BigQuery has location US only, not " + location);
        }
        try (Connection c = pooled();
                Statement st = c.createStatement()) {
            if (datasetExists(c, dataset)) {
                throw BigQueryError.duplicate("Already Exists: Dataset " + project + ":" + dataset);
            }
            st.execute("CREATE SCHEMA " + Names.pgIdentifier(dataset));
        }
        return dataset(project, dataset);
    }

    // ---- tables ----

    private static String qualified(String dataset, String table) {
        return Names.pgIdentifier(dataset) + "." + Names.pgIdentifier(table);
    }

    private JsonNode listTables(String project, String dataset) throws Exception {
        ObjectNode out = JSON.createObjectNode();
        out.put("kind", "bigquery#tableList");
        ArrayNode tables = out.putArray("tables");
        try (Connection c = pooled();
                PreparedStatement st =
                        c.prepareStatement(
                                "SELECT tablename FROM pg_tables WHERE schemaname = ? ORDER BY 1")) {
            if (!datasetExists(c, dataset)) {
                throw BigQueryError.notFound("Not found: Dataset " + project + ":" + dataset);
            }
            st.setString(1, Names.standIn(dataset));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String name = Names.original(rs.getString(1));
                    ObjectNode t = tables.addObject();
                    t.put("kind", "bigquery#table");
                    t.put("id", project + ":" + dataset + "." + name);
                    t.putObject("tableReference")
                            .put("projectId", project)
                            .put("datasetId", dataset)
                            .put("tableId", name);
                    t.put("type", "TABLE");
                }
            }
        }
        out.put("totalItems", tables.size());
        return out;
    }

    private JsonNode getTable(String project, String dataset, String table) throws Exception {
        try (Connection c = pooled()) {
            ObjectNode t = table(c, project, dataset, table);
            if (t == null) {
                throw BigQueryError.notFound(
                        "Not found: Table " + project + ":" + dataset + "." + table);
            }
            return t;
        }
    }

    /** The table resource, or null when there is no such table. */
    static ObjectNode table(Connection c, String project, String dataset, String table)
            throws SQLException {
        String comment = null;
        boolean found = false;
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT obj_description(cl.oid, 'pg_class') FROM pg_class cl JOIN"
                                + " pg_namespace n ON n.oid = cl.relnamespace WHERE n.nspname = ?"
                                + " AND cl.relname = ? AND cl.relkind = 'r'")) {
            st.setString(1, Names.standIn(dataset));
            st.setString(2, Names.standIn(table));
            try (ResultSet rs = st.executeQuery()) {
                if (rs.next()) {
                    found = true;
                    comment = rs.getString(1);
                }
            }
        }
        if (!found) {
            return null;
        }
        ObjectNode t = JSON.createObjectNode();
        t.put("kind", "bigquery#table");
        t.put("id", project + ":" + dataset + "." + table);
        t.putObject("tableReference")
                .put("projectId", project)
                .put("datasetId", dataset)
                .put("tableId", table);
        t.put("type", "TABLE");
        t.put("location", "US");
        if (comment != null) {
            t.put("description", comment);
        }
        ArrayNode fields = t.putObject("schema").putArray("fields");
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull"
                                + " FROM pg_attribute a JOIN pg_class cl ON cl.oid = a.attrelid"
                                + " JOIN pg_namespace n ON n.oid = cl.relnamespace WHERE"
                                + " n.nspname = ? AND cl.relname = ? AND a.attnum > 0 AND NOT"
                                + " a.attisdropped ORDER BY a.attnum")) {
            st.setString(1, Names.standIn(dataset));
            st.setString(2, Names.standIn(table));
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    ObjectNode f = fields.addObject();
                    f.put("name", Names.original(rs.getString(1)));
                    String pgType = rs.getString(2);
                    Integer precision = null;
                    Integer scale = null;
                    if (pgType.startsWith("numeric(")) {
                        String[] ps = pgType.substring(8, pgType.length() - 1).split(",");
                        precision = Integer.parseInt(ps[0].trim());
                        scale = Integer.parseInt(ps[1].trim());
                        pgType = "numeric";
                    }
                    String[] type = Types2.bigQuery(pgType, precision, scale);
                    f.put("type", type[0]);
                    if (type[1] != null) {
                        f.put("precision", type[1]);
                        f.put("scale", type[2]);
                    }
                    f.put("mode", rs.getBoolean(3) ? "REQUIRED" : "NULLABLE");
                }
            }
        }
        return t;
    }

    private JsonNode insertTable(String project, String dataset, JsonNode body) throws Exception {
        String table = body.path("tableReference").path("tableId").asText();
        StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(qualified(dataset, table));
        ddl.append(" (");
        JsonNode fields = body.path("schema").path("fields");
        for (int i = 0; i < fields.size(); i++) {
            JsonNode f = fields.get(i);
            if (f.has("fields") || f.path("mode").asText().equals("REPEATED")) {
                throw BigQueryError.notImplemented("RECORD and REPEATED columns");
            }
            GoogleSql.checkName(f.path("name").asText());
            ddl.append(i == 0 ? "" : ", ")
                    .append(Names.pgIdentifier(f.path("name").asText()))
                    .append(' ')
                    .append(
                            Types2.postgres(
                                    f.path("type").asText(),
                                    f.has("precision") ? f.path("precision").asText() : null,
                                    f.has("scale") ? f.path("scale").asText() : null));
            if (f.path("mode").asText().equals("REQUIRED")) {
                ddl.append(" NOT NULL");
            }
        }
        ddl.append(')');
        try (Connection c = pooled();
                Statement st = c.createStatement()) {
            if (!datasetExists(c, dataset)) {
                throw BigQueryError.notFound("Not found: Dataset " + project + ":" + dataset);
            }
            if (table(c, project, dataset, table) != null) {
                throw BigQueryError.duplicate(
                        "Already Exists: Table " + project + ":" + dataset + "." + table);
            }
            c.setAutoCommit(false);
            st.execute(ddl.toString());
            if (body.has("description")) {
                st.execute(
                        "COMMENT ON TABLE "
                                + qualified(dataset, table)
                                + " IS '"
                                + body.path("description").asText().replace("'", "''")
                                + "'");
            }
            c.commit();
            return table(c, project, dataset, table);
        }
    }

    private void deleteTable(String project, String dataset, String table) throws Exception {
        try (Connection c = pooled();
                Statement st = c.createStatement()) {
            if (table(c, project, dataset, table) == null) {
                throw BigQueryError.notFound(
                        "Not found: Table " + project + ":" + dataset + "." + table);
            }
            st.execute("DROP TABLE " + qualified(dataset, table));
        }
    }

    // ---- queries ----

    private JsonNode runQuery(String project, JsonNode body) throws Exception {
        queries.incrementAndGet();
        if (body.path("useLegacySql").asBoolean(true)) {
            throw BigQueryError.notImplemented("legacy SQL");
        }
        if (body.path("createSession").asBoolean(false) || body.has("connectionProperties")) {
            throw BigQueryError.notImplemented("sessions");
        }
        String sql = body.path("query").asText();
        GoogleSql.Translated pg = GoogleSql.translate(sql);
        Map<String, JsonNode> values = new HashMap<>();
        for (JsonNode p : body.path("queryParameters")) {
            values.put(p.path("name").asText(), p);
        }
        String defaultDataset = body.path("defaultDataset").path("datasetId").asText(null);
        boolean int64Timestamps = body.path("formatOptions").path("useInt64Timestamp").asBoolean();
        ObjectNode out = JSON.createObjectNode();
        out.put("kind", "bigquery#queryResponse");
        String jobId = "fake_job_" + jobs.incrementAndGet();
        out.putObject("jobReference")
                .put("projectId", project)
                .put("jobId", jobId)
                .put("location", "US");
        out.put("jobComplete", true);
        try (Connection c = pooled()) {
            c.setAutoCommit(false);
            try (Statement set = c.createStatement()) {
                if (defaultDataset != null) {
                    set.execute("SET LOCAL search_path TO " + Names.pgIdentifier(defaultDataset));
                }
            }
            long affected = 0;
            boolean rows = false;
            for (String statement : pg.statements()) {
                try (PreparedStatement st = c.prepareStatement(statement)) {
                    int i = 1;
                    for (String name : pg.parameters()) {
                        bind(st, i++, values.get(name), name);
                    }
                    if (st.execute()) {
                        try (ResultSet rs = st.getResultSet()) {
                            result(rs, out, int64Timestamps);
                            rows = true;
                        }
                    } else {
                        affected = Math.max(0, st.getUpdateCount());
                    }
                }
            }
            c.commit();
            if (!rows) {
                out.putObject("schema").putArray("fields");
                out.put("totalRows", "0");
                String head = sql.stripLeading().toUpperCase(java.util.Locale.ROOT);
                if (head.startsWith("INSERT")
                        || head.startsWith("MERGE")
                        || head.startsWith("DELETE")
                        || head.startsWith("UPDATE")) {
                    out.put("numDmlAffectedRows", Long.toString(affected));
                }
            }
            return out;
        } catch (SQLException e) {
            throw sqlError(project, e);
        }
    }

    private static BigQueryError sqlError(String project, SQLException e) {
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        if (state.equals("42P01") || state.equals("3F000")) {
            return BigQueryError.notFound("Not found: " + message.replaceFirst("^ERROR: ", ""));
        }
        if (state.equals("40001") || state.equals("40P01")) {
            return BigQueryError.invalidQuery(
                    "Could not serialize access to table due to concurrent update");
        }
        return BigQueryError.invalidQuery(message.replaceFirst("^ERROR: ", ""));
    }

    private static void bind(PreparedStatement st, int i, JsonNode p, String name)
            throws SQLException, BigQueryError {
        if (p == null) {
            throw BigQueryError.invalidQuery("Query parameter '" + name + "' not found");
        }
        String type = p.path("parameterType").path("type").asText();
        JsonNode value = p.path("parameterValue").path("value");
        boolean isNull = value.isMissingNode() || value.isNull();
        switch (type) {
            case "STRING" -> {
                if (isNull) {
                    st.setNull(i, Types.VARCHAR);
                } else {
                    st.setString(i, value.asText());
                }
            }
            case "INT64" -> {
                if (isNull) {
                    st.setNull(i, Types.BIGINT);
                } else {
                    st.setLong(i, Long.parseLong(value.asText()));
                }
            }
            case "BOOL" -> {
                if (isNull) {
                    st.setNull(i, Types.BOOLEAN);
                } else {
                    st.setBoolean(i, Boolean.parseBoolean(value.asText()));
                }
            }
            default -> throw BigQueryError.notImplemented("query parameters of type " + type);
        }
    }

    private static void result(ResultSet rs, ObjectNode out, boolean int64Timestamps)
            throws SQLException {
        ResultSetMetaData meta = rs.getMetaData();
        ArrayNode fields = out.putObject("schema").putArray("fields");
        List<String> types = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            String[] type =
                    Types2.bigQuery(
                            meta.getColumnTypeName(i), meta.getPrecision(i), meta.getScale(i));
            types.add(type[0]);
            fields.addObject()
                    .put("name", Names.original(meta.getColumnLabel(i)))
                    .put("type", type[0])
                    .put("mode", "NULLABLE");
        }
        ArrayNode rows = out.putArray("rows");
        long n = 0;
        while (rs.next()) {
            ArrayNode f = rows.addObject().putArray("f");
            for (int i = 1; i <= types.size(); i++) {
                ObjectNode v = f.addObject();
                Object o = rs.getObject(i);
                if (o == null) {
                    v.putNull("v");
                } else if (types.get(i - 1).equals("BYTES")) {
                    v.put("v", Base64.getEncoder().encodeToString(rs.getBytes(i)));
                } else if (types.get(i - 1).equals("TIMESTAMP")) {
                    OffsetDateTime t = rs.getObject(i, OffsetDateTime.class);
                    long micros = t.toEpochSecond() * 1_000_000L + t.getNano() / 1000;
                    v.put(
                            "v",
                            int64Timestamps
                                    ? Long.toString(micros)
                                    : new java.math.BigDecimal(micros)
                                            .movePointLeft(6)
                                            .toPlainString());
                } else {
                    v.put("v", rs.getString(i));
                }
            }
            n++;
        }
        out.put("totalRows", Long.toString(n));
    }
}
