package io.skippr.sinks.gcs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * A fake of Google Cloud Storage's JSON API over plain HTTP on 127.0.0.1 and a free port, its
 * objects in a folder on disk ({@link FakeGcsObjects}): the subset the official Java client uses
 * for {@link GcsFileStore}. Objects: insert (multipart, media and resumable uploads), get
 * (metadata, or the bytes with {@code alt=media}, with a {@code Range}), list (prefix, {@code
 * maxResults}, {@code pageToken}), delete, rewrite and copy, each with {@code ifGenerationMatch}
 * and {@code ifGenerationNotMatch}. Buckets: insert and get. Errors are the API's JSON error
 * documents; any other request or query parameter is refused with 501, never answered wrongly.
 *
 * <p>Not modelled: authentication and IAM (the fake counts requests that carry an {@code
 * Authorization} header, so tests can check none was sent), metagenerations, versioning, ACLs,
 * encryption keys, composite objects, and the real service's consistency and latency.
 *
 * <p>{@link #get()} starts one per JVM, reached by {@code skipprd} processes too; {@link #main}
 * runs one as a process of its own on a given folder.
 */
public final class FakeGcsServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String API = "/storage/v1/b";
    private static final String UPLOAD = "/upload/storage/v1/b";
    private static final String DOWNLOAD = "/download/storage/v1/b";
    private static final Charset UTF8 = StandardCharsets.UTF_8;
    private static final Pattern RANGE = Pattern.compile("bytes=(\\d+)-(\\d*)");

    /** Query parameters that change nothing here: the fake always answers in full. */
    private static final Set<String> NEUTRAL =
            Set.of("projection", "prettyPrint", "fields", "userProject", "alt", "project");

    /**
     * The {@code x-goog-} headers that change nothing here: the client's identity, a retry's
     * idempotency token, the project billed. Every other one (encryption keys such as {@code
     * x-goog-encryption-key}, preconditions such as {@code x-goog-if-generation-match}, {@code
     * x-goog-content-length-range} …) changes what a request means and is refused.
     */
    private static final Set<String> NEUTRAL_HEADERS =
            Set.of(
                    "x-goog-api-client",
                    "x-goog-gcs-idempotency-token",
                    "x-goog-user-project",
                    "x-goog-request-params");

    /** HTTP's own preconditions, which GCS honours and the fake does not model: refused. */
    private static final Set<String> CONDITIONAL_HEADERS =
            Set.of(
                    "if-match",
                    "if-none-match",
                    "if-modified-since",
                    "if-unmodified-since",
                    "if-range");

    /** The fields of an object resource the fake keeps or checks; any other one is refused. */
    static final Set<String> OBJECT_FIELDS =
            Set.of("name", "bucket", "contentType", "metadata", "crc32c", "md5Hash");

    /** The fields of a bucket resource the fake keeps; any other one is refused. */
    private static final Set<String> BUCKET_FIELDS = Set.of("name");

    private static FakeGcsServer instance;
    private static final AtomicInteger PREFIXES = new AtomicInteger();

    private final HttpServer http;
    private final ExecutorService threads;
    private final FakeGcsObjects objects;
    private final FakeGcsUploads uploads;
    private final int pageSize;
    private final AtomicInteger authorized = new AtomicInteger();

    /**
     * @param pageSize the most objects a list page holds (GCS: 1000); a small one makes clients
     *     page
     */
    public FakeGcsServer(Path folder, int pageSize) throws IOException {
        this.objects = new FakeGcsObjects(folder);
        this.uploads = new FakeGcsUploads(folder, objects);
        this.pageSize = pageSize;
        this.http =
                HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        this.threads =
                Executors.newFixedThreadPool(
                        8,
                        task -> {
                            Thread thread = new Thread(task, "fake-gcs");
                            thread.setDaemon(true);
                            return thread;
                        });
        http.setExecutor(threads);
        http.createContext("/", this::handle);
        http.start();
    }

    /** The server of this JVM, started on first use on a temporary folder; pages of 3 objects. */
    public static synchronized FakeGcsServer get() {
        if (instance == null) {
            try {
                instance = new FakeGcsServer(Files.createTempDirectory("skippr-gcs-"), 3);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return instance;
    }

    /** Runs a server on {@code args[0]} (a folder), prints its endpoint and serves until killed. */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            System.err.println("usage: FakeGcsServer FOLDER");
            System.exit(2);
        }
        FakeGcsServer server = new FakeGcsServer(Files.createDirectories(Path.of(args[0])), 1000);
        System.out.println(server.endpoint());
        System.out.flush();
        new CountDownLatch(1).await();
    }

    /**
     * The JSON API endpoint, as the {@code endpoint} field takes it: {@code http://127.0.0.1:N}.
     */
    public String endpoint() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    /** Creates a bucket (as {@code buckets.insert} does); nothing happens if it exists. */
    public void createBucket(String bucket) throws IOException {
        objects.createBucket(bucket);
    }

    /** A new object name prefix for one store, such as {@code run-3/out}. */
    public static String freshPrefix() {
        return "run-" + PREFIXES.incrementAndGet() + "/out";
    }

    /**
     * How many requests carried an {@code Authorization} header (credentials sent to a fake) since
     * the server started or its counters were last reset.
     */
    public int requestsWithCredentials() {
        return authorized.get();
    }

    /**
     * Sets the counters to zero. The server is shared by every test of a JVM ({@link #get()}): a
     * test that checks a counter resets it first, so what an earlier test sent never fails a later
     * one.
     */
    public void resetCounters() {
        authorized.set(0);
    }

    @Override
    public void close() {
        http.stop(0);
        threads.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (exchange.getRequestHeaders().containsKey("Authorization")) {
                authorized.incrementAndGet();
            }
            try {
                Request request = new Request(exchange);
                checkHeaders(exchange, request);
                route(exchange, request);
            } catch (FakeGcsError e) {
                error(exchange, e.code, e.reason, e.getMessage());
            } catch (RuntimeException | IOException e) {
                error(exchange, 500, "backendError", "FakeGcsServer failed: " + e);
            }
        }
    }

    /**
     * Refuses the headers that change what a request means and that the fake does not model, so a
     * client that asks for encryption or a precondition by header gets an error, never a reply that
     * ignored it. Only a resumable upload's PUT may carry {@code x-goog-hash} (the whole object's
     * CRC32C, which it checks).
     */
    private static void checkHeaders(HttpExchange exchange, Request r) {
        boolean resumablePut =
                r.method().equals("PUT")
                        && r.path().startsWith(UPLOAD + "/")
                        && "resumable".equals(r.query().values.get("uploadType"));
        for (String header : exchange.getRequestHeaders().keySet()) {
            String name = header.toLowerCase(Locale.ROOT);
            boolean goog =
                    name.startsWith("x-goog-")
                            && !NEUTRAL_HEADERS.contains(name)
                            && !(resumablePut && name.equals("x-goog-hash"));
            if (goog || CONDITIONAL_HEADERS.contains(name)) {
                throw FakeGcsError.unsupported("the header " + name);
            }
        }
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        if (encoding != null
                && !Set.of("gzip", "identity").contains(encoding.toLowerCase(Locale.ROOT))) {
            throw FakeGcsError.unsupported("Content-Encoding: " + encoding);
        }
    }

    /**
     * Refuses a JSON resource's fields that the fake neither keeps nor checks (a {@code
     * kmsKeyName}, a {@code contentEncoding}, a {@code retention} …): dropping them silently would
     * answer as if GCS had applied them. A {@code bucket} field must name the bucket of the path.
     */
    static void checkFields(ObjectNode resource, Set<String> modelled, String what, String bucket) {
        for (Iterator<String> names = resource.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!modelled.contains(field)) {
                throw FakeGcsError.unsupported("the field " + field + " of " + what);
            }
        }
        if (bucket != null
                && resource.hasNonNull("bucket")
                && !resource.get("bucket").asText().equals(bucket)) {
            throw new FakeGcsError(
                    400,
                    "invalid",
                    "the resource's bucket "
                            + resource.get("bucket").asText()
                            + " is not the request's bucket "
                            + bucket);
        }
    }

    /** A request's method, path segments (percent-decoded) and query parameters. */
    private record Request(String method, String path, List<String> segments, Query query) {
        Request(HttpExchange exchange) {
            this(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    segments(exchange.getRequestURI().getRawPath()),
                    new Query(exchange.getRequestURI().getRawQuery()));
        }

        private static List<String> segments(String rawPath) {
            return Arrays.stream(rawPath.split("/"))
                    .skip(1)
                    .map(FakeGcsServer::percentDecode)
                    .toList();
        }
    }

    /** Query parameters; every one a handler does not take is refused. */
    private static final class Query {
        private final Map<String, String> values = new HashMap<>();
        private final Set<String> taken = new HashSet<>(NEUTRAL);

        Query(String raw) {
            if (raw != null && !raw.isEmpty()) {
                for (String pair : raw.split("&")) {
                    int eq = pair.indexOf('=');
                    String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), UTF8);
                    String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), UTF8);
                    values.put(key, value);
                }
            }
            if (values.containsKey("alt") && !Set.of("json", "media").contains(values.get("alt"))) {
                throw FakeGcsError.unsupported("alt=" + values.get("alt"));
            }
        }

        String get(String key) {
            taken.add(key);
            return values.get(key);
        }

        Long number(String key) {
            String value = get(key);
            try {
                return value == null ? null : Long.valueOf(value);
            } catch (NumberFormatException e) {
                throw new FakeGcsError(400, "invalid", "Invalid value for " + key + ": " + value);
            }
        }

        FakeGcsObjects.Preconditions preconditions(String prefix) {
            String match = prefix.isEmpty() ? "ifGenerationMatch" : prefix + "GenerationMatch";
            String notMatch =
                    prefix.isEmpty() ? "ifGenerationNotMatch" : prefix + "GenerationNotMatch";
            return new FakeGcsObjects.Preconditions(number(match), number(notMatch));
        }

        /** Refuses the parameters no handler took, before the request changes anything. */
        void checkAllTaken() {
            for (String key : values.keySet()) {
                if (!taken.contains(key)) {
                    throw FakeGcsError.unsupported("the query parameter " + key);
                }
            }
        }
    }

    /**
     * Decodes %XX escapes as UTF-8; unlike URLDecoder, leaves '+' a plus (object names hold it).
     */
    static String percentDecode(String raw) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '%' && i + 2 < raw.length()) {
                bytes.write(Integer.parseInt(raw.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.writeBytes(String.valueOf(c).getBytes(UTF8));
            }
        }
        return bytes.toString(UTF8);
    }

    private void route(HttpExchange exchange, Request r) throws IOException {
        List<String> s = r.segments();
        String method = r.method();
        Query q = r.query();
        if (r.path().startsWith(UPLOAD + "/") && s.size() == 6 && s.get(5).equals("o")) {
            upload(exchange, s.get(4), q);
        } else if (r.path().startsWith(DOWNLOAD + "/")
                && s.size() == 7
                && s.get(5).equals("o")
                && method.equals("GET")) {
            media(exchange, s.get(4), s.get(6), q);
        } else if (!r.path().startsWith(API)) {
            throw FakeGcsError.unsupported(method + " " + r.path());
        } else if (s.size() == 3 && method.equals("POST")) {
            insertBucket(exchange, q);
        } else if (s.size() == 4 && method.equals("GET")) {
            getBucket(exchange, s.get(3), q);
        } else if (s.size() == 5 && s.get(4).equals("o") && method.equals("GET")) {
            list(exchange, s.get(3), q);
        } else if (s.size() == 6 && s.get(4).equals("o") && method.equals("GET")) {
            if ("media".equals(q.get("alt"))) {
                media(exchange, s.get(3), s.get(5), q);
            } else {
                getObject(exchange, s.get(3), s.get(5), q);
            }
        } else if (s.size() == 6 && s.get(4).equals("o") && method.equals("DELETE")) {
            deleteObject(exchange, s.get(3), s.get(5), q);
        } else if (s.size() == 11
                && s.get(4).equals("o")
                && s.get(7).equals("b")
                && s.get(9).equals("o")
                && method.equals("POST")
                && Set.of("rewriteTo", "copyTo").contains(s.get(6))) {
            rewrite(exchange, s.get(3), s.get(5), s.get(6), s.get(8), s.get(10), q);
        } else {
            throw FakeGcsError.unsupported(method + " " + r.path());
        }
    }

    private static byte[] body(HttpExchange exchange) throws IOException {
        try (InputStream in = bodyStream(exchange)) {
            return in.readAllBytes();
        }
    }

    private static InputStream bodyStream(HttpExchange exchange) throws IOException {
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        InputStream in = exchange.getRequestBody();
        return "gzip".equalsIgnoreCase(encoding) ? new GZIPInputStream(in) : in;
    }

    private static ObjectNode jsonBody(HttpExchange exchange) throws IOException {
        byte[] body = body(exchange);
        if (body.length == 0) {
            return JSON.createObjectNode();
        }
        try {
            return (ObjectNode) JSON.readTree(body);
        } catch (IOException | ClassCastException e) {
            throw new FakeGcsError(400, "parseError", "Parse Error");
        }
    }

    private void insertBucket(HttpExchange exchange, Query q) throws IOException {
        q.get("project");
        q.checkAllTaken();
        ObjectNode bucket = jsonBody(exchange);
        checkFields(bucket, BUCKET_FIELDS, "a bucket", null);
        String name = bucket.path("name").asText("");
        if (!objects.createBucket(name)) {
            throw new FakeGcsError(
                    409,
                    "conflict",
                    "Your previous request to create the named bucket succeeded"
                            + " and you already own it.");
        }
        json(exchange, 200, bucketResource(name));
    }

    private void getBucket(HttpExchange exchange, String bucket, Query q) throws IOException {
        q.checkAllTaken();
        if (!objects.bucketExists(bucket)) {
            throw new FakeGcsError(404, "notFound", "The specified bucket does not exist.");
        }
        json(exchange, 200, bucketResource(bucket));
    }

    private static ObjectNode bucketResource(String name) {
        ObjectNode bucket = JSON.createObjectNode();
        bucket.put("kind", "storage#bucket");
        bucket.put("id", name);
        bucket.put("name", name);
        bucket.put("location", "US");
        bucket.put("storageClass", "STANDARD");
        bucket.put("metageneration", "1");
        return bucket;
    }

    private void list(HttpExchange exchange, String bucket, Query q) throws IOException {
        String prefix = q.get("prefix");
        Long max = q.number("maxResults");
        String token = q.get("pageToken");
        if ("true".equals(q.get("versions"))) {
            throw FakeGcsError.unsupported("versions=true");
        }
        if ("true".equals(q.get("softDeleted"))) {
            throw FakeGcsError.unsupported("softDeleted=true");
        }
        q.checkAllTaken();
        String after =
                token == null || token.isEmpty()
                        ? null
                        : new String(Base64.getUrlDecoder().decode(token), UTF8);
        int limit = (int) Math.min(max == null ? pageSize : max, pageSize);
        ArrayNode items = JSON.createArrayNode();
        String last = null;
        boolean more = false;
        for (ObjectNode object : objects.list(bucket, prefix == null ? "" : prefix)) {
            String name = object.get("name").asText();
            if (after != null && FakeGcsObjects.compareNames(name, after) <= 0) {
                continue;
            }
            if (items.size() == limit) {
                more = true;
                break;
            }
            items.add(object);
            last = name;
        }
        ObjectNode page = JSON.createObjectNode();
        page.put("kind", "storage#objects");
        if (!items.isEmpty()) {
            page.set("items", items);
        }
        if (more) {
            page.put("nextPageToken", Base64.getUrlEncoder().encodeToString(last.getBytes(UTF8)));
        }
        json(exchange, 200, page);
    }

    /** The object a request names, holding it to {@code generation} and its preconditions. */
    private ObjectNode source(String bucket, String name, Query q, String generationKey)
            throws IOException {
        Long generation = q.number(generationKey);
        FakeGcsObjects.Preconditions pre =
                q.preconditions(generationKey.equals("generation") ? "" : "ifSource");
        q.checkAllTaken();
        ObjectNode object = objects.require(bucket, name);
        if (generation != null && generation != FakeGcsObjects.generation(object)) {
            throw new FakeGcsError(404, "notFound", "No such object: " + bucket + "/" + name);
        }
        if (pre.generationNotMatch() != null
                && pre.generationNotMatch() == FakeGcsObjects.generation(object)
                && generationKey.equals("generation")) {
            throw new FakeGcsError(304, "notModified", "Not Modified");
        }
        pre.checkWrite(object);
        return object;
    }

    private void getObject(HttpExchange exchange, String bucket, String name, Query q)
            throws IOException {
        json(exchange, 200, source(bucket, name, q, "generation"));
    }

    private void media(HttpExchange exchange, String bucket, String name, Query q)
            throws IOException {
        q.get("alt");
        ObjectNode object = source(bucket, name, q, "generation");
        long size = object.get("size").asLong();
        String range = exchange.getRequestHeaders().getFirst("Range");
        long first = 0;
        long last = size - 1;
        int code = 200;
        if (range != null) {
            Matcher m = RANGE.matcher(range.trim());
            if (!m.matches()) {
                throw FakeGcsError.unsupported("the Range " + range);
            }
            first = Long.parseLong(m.group(1));
            if (!m.group(2).isEmpty()) {
                last = Math.min(last, Long.parseLong(m.group(2)));
            }
            if (first >= size) {
                throw new FakeGcsError(
                        416, "requestedRangeNotSatisfiable", "Request range not satisfiable");
            }
            code = 206;
            exchange.getResponseHeaders()
                    .set("Content-Range", "bytes " + first + "-" + last + "/" + size);
        }
        exchange.getResponseHeaders().set("Content-Type", object.get("contentType").asText());
        exchange.getResponseHeaders().set("x-goog-generation", object.get("generation").asText());
        exchange.getResponseHeaders().set("x-goog-metageneration", "1");
        exchange.getResponseHeaders().set("x-goog-stored-content-length", Long.toString(size));
        exchange.getResponseHeaders().set("x-goog-stored-content-encoding", "identity");
        exchange.getResponseHeaders().add("x-goog-hash", "crc32c=" + object.get("crc32c").asText());
        exchange.getResponseHeaders().add("x-goog-hash", "md5=" + object.get("md5Hash").asText());
        long length = last - first + 1;
        exchange.sendResponseHeaders(code, length == 0 ? -1 : length);
        if (length > 0) {
            try (InputStream in = objects.open(object);
                    OutputStream out = exchange.getResponseBody()) {
                in.skipNBytes(first);
                copy(in, out, length);
            }
        }
    }

    private static void copy(InputStream in, OutputStream out, long length) throws IOException {
        byte[] buffer = new byte[64 * 1024];
        while (length > 0) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, length));
            if (n < 0) {
                throw new IOException("object data ended early");
            }
            out.write(buffer, 0, n);
            length -= n;
        }
    }

    private void deleteObject(HttpExchange exchange, String bucket, String name, Query q)
            throws IOException {
        Long generation = q.number("generation");
        FakeGcsObjects.Preconditions pre = q.preconditions("");
        q.checkAllTaken();
        if (generation != null
                && generation != FakeGcsObjects.generation(objects.require(bucket, name))) {
            throw new FakeGcsError(404, "notFound", "No such object: " + bucket + "/" + name);
        }
        objects.delete(bucket, name, pre);
        exchange.sendResponseHeaders(204, -1);
    }

    private void rewrite(
            HttpExchange exchange,
            String sourceBucket,
            String sourceName,
            String verb,
            String bucket,
            String name,
            Query q)
            throws IOException {
        FakeGcsObjects.Preconditions target = q.preconditions("");
        String token = q.get("rewriteToken");
        q.get("maxBytesRewrittenPerCall"); // one call always finishes: GCS may do the same
        if (token != null && !token.isEmpty()) {
            throw FakeGcsError.unsupported("rewriteToken (its rewrites finish in one call)");
        }
        ObjectNode requested = jsonBody(exchange);
        checkFields(requested, OBJECT_FIELDS, "an object", bucket);
        ObjectNode source = source(sourceBucket, sourceName, q, "sourceGeneration");
        ObjectNode object =
                objects.copy(source, bucket, name, requested.isEmpty() ? null : requested, target);
        if (verb.equals("copyTo")) {
            json(exchange, 200, object);
            return;
        }
        ObjectNode response = JSON.createObjectNode();
        response.put("kind", "storage#rewriteResponse");
        response.put("totalBytesRewritten", object.get("size").asText());
        response.put("objectSize", object.get("size").asText());
        response.put("done", true);
        response.set("resource", object);
        json(exchange, 200, response);
    }

    private void upload(HttpExchange exchange, String bucket, Query q) throws IOException {
        String type = q.get("uploadType");
        String method = exchange.getRequestMethod();
        if ("resumable".equals(type) && method.equals("PUT")) {
            String id = q.get("upload_id");
            q.checkAllTaken();
            String crc32c = null;
            for (String hash :
                    exchange.getRequestHeaders().getOrDefault("x-goog-hash", List.of())) {
                for (String part : hash.split(",")) {
                    if (part.trim().startsWith("crc32c=")) {
                        crc32c = part.trim().substring("crc32c=".length());
                    }
                }
            }
            FakeGcsUploads.Progress progress;
            try (InputStream in = bodyStream(exchange)) {
                progress =
                        uploads.put(
                                id,
                                exchange.getRequestHeaders().getFirst("Content-Range"),
                                in,
                                crc32c);
            }
            if (progress.object() != null) {
                json(exchange, 200, progress.object());
            } else {
                if (progress.persisted() > 0) {
                    exchange.getResponseHeaders()
                            .set("Range", "bytes=0-" + (progress.persisted() - 1));
                }
                exchange.sendResponseHeaders(308, -1);
            }
            return;
        }
        if (!method.equals("POST")) {
            throw FakeGcsError.unsupported(method + " of an upload");
        }
        FakeGcsObjects.Preconditions pre = q.preconditions("");
        if ("resumable".equals(type)) {
            String nameParam = q.get("name");
            q.checkAllTaken();
            ObjectNode metadata = jsonBody(exchange);
            checkFields(metadata, OBJECT_FIELDS, "an object", bucket);
            if (nameParam != null) {
                metadata.put("name", nameParam);
            }
            String id = uploads.start(bucket, metadata, pre);
            exchange.getResponseHeaders()
                    .set(
                            "Location",
                            endpoint()
                                    + UPLOAD
                                    + "/"
                                    + bucket
                                    + "/o?uploadType=resumable&upload_id="
                                    + id);
            exchange.sendResponseHeaders(200, -1);
        } else if ("multipart".equals(type)) {
            q.checkAllTaken();
            FakeGcsMultipart parts =
                    FakeGcsMultipart.parse(
                            exchange.getRequestHeaders().getFirst("Content-Type"), body(exchange));
            ObjectNode metadata;
            try {
                metadata = (ObjectNode) JSON.readTree(parts.metadata());
            } catch (IOException | ClassCastException e) {
                throw new FakeGcsError(400, "parseError", "Parse Error");
            }
            checkFields(metadata, OBJECT_FIELDS, "an object", bucket);
            store(exchange, bucket, metadata, new ByteArrayInputStream(parts.media()), pre);
        } else if ("media".equals(type)) {
            String name = q.get("name");
            q.checkAllTaken();
            ObjectNode metadata = JSON.createObjectNode();
            metadata.put("name", name);
            metadata.put("contentType", exchange.getRequestHeaders().getFirst("Content-Type"));
            try (InputStream in = bodyStream(exchange)) {
                store(exchange, bucket, metadata, in, pre);
            }
        } else {
            throw FakeGcsError.unsupported("uploadType=" + type);
        }
    }

    private void store(
            HttpExchange exchange,
            String bucket,
            ObjectNode metadata,
            InputStream media,
            FakeGcsObjects.Preconditions pre)
            throws IOException {
        if (!objects.bucketExists(bucket)) {
            throw new FakeGcsError(404, "notFound", "The specified bucket does not exist.");
        }
        FakeGcsObjects.Content content = objects.receive(media);
        String name = metadata.path("name").asText(null);
        json(exchange, 200, objects.put(bucket, name, metadata, content, pre));
    }

    private static void json(HttpExchange exchange, int code, ObjectNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void error(HttpExchange exchange, int code, String reason, String message)
            throws IOException {
        if (code == 304) {
            exchange.sendResponseHeaders(304, -1);
            return;
        }
        ObjectNode detail = JSON.createObjectNode();
        detail.put("message", message);
        detail.put("domain", "global");
        detail.put("reason", reason);
        ObjectNode error = JSON.createObjectNode();
        error.put("code", code);
        error.put("message", message);
        error.set("errors", JSON.createArrayNode().add(detail));
        ObjectNode body = JSON.createObjectNode();
        body.set("error", error);
        json(exchange, code, body);
    }
}
