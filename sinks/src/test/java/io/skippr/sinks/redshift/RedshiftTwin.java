package io.skippr.sinks.redshift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.sinks.s3.S3Connection;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Redshift's test twin: a listener that speaks the PostgreSQL wire protocol, as the Redshift JDBC
 * driver does, in front of the test PostgreSQL, and makes PostgreSQL behave as Redshift where
 * Skippr depends on it.
 *
 * <ul>
 *   <li>It takes the driver's start-up message and passes on only the parameters PostgreSQL knows
 *       ({@code driver_version}, {@code client_protocol_version} … are dropped), and answers the
 *       driver's TLS request with "no" (connect with {@code ssl: false}).
 *   <li>{@code COPY <table> FROM 's3://bucket/x.manifest' IAM_ROLE '…' MANIFEST FORMAT AS CSV GZIP
 *       NULL AS '\\N' …} is carried out: the manifest and every file it lists are read from the S3
 *       store (S3Proxy), and their rows loaded into the table inside the session's transaction
 *       (PostgreSQL's own COPY into a temporary text table, then an INSERT that casts to the
 *       table's column types), so a rollback takes them back. Only the options Skippr uses are
 *       implemented; any other COPY (another option, another format, {@code FROM STDIN}) is refused
 *       with an error, as is a missing manifest or a missing mandatory file.
 *   <li>Statements with a construct Redshift refuses ({@link #REFUSED}) fail with an error that
 *       names it, in the transaction they were sent in, as on Redshift; {@code VARBYTE(n)} is
 *       created as {@code bytea}.
 *   <li>A name over PostgreSQL's 63 bytes (Redshift keeps 127) is stored under a 63-byte stand-in
 *       and given back whole in every result ({@link TwinNames}).
 *   <li>Every statement's text is kept ({@link #statements}); {@link #failNext} makes the next
 *       statements that match fail with Redshift's serializable isolation error 1023.
 * </ul>
 *
 * <p>What it does not make PostgreSQL do as Redshift does: fold quoted names to lower case, enforce
 * no keys, parse COPY's CSV by Redshift's rules, or check COPY's credentials.
 */
public final class RedshiftTwin implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Constructs Redshift refuses (and PostgreSQL accepts), with the words of the refusal. */
    public static final Map<Pattern, String> REFUSED = new LinkedHashMap<>();

    static {
        refuse("\\bLATERAL\\b", "LATERAL joins");
        refuse("\\baclexplode\\b", "the function aclexplode");
        refuse("\\bpg_advisory\\w*", "advisory locks (pg_advisory_*)");
        refuse("\\bON\\s+CONFLICT\\b", "INSERT … ON CONFLICT");
        refuse("\\bRETURNING\\b", "RETURNING");
        refuse("\\bjsonb\\b", "the type jsonb");
        refuse("\\bbytea\\b", "the type bytea");
        refuse("::\\s*reg(class|type|proc)\\b", "reg* casts");
        refuse("\\barray_agg\\b|\\bARRAY\\s*\\[|\\[\\]", "arrays");
        refuse("=\\s*ANY\\s*\\(", "= ANY (…)");
        refuse("\\bstring_agg\\b", "string_agg");
        refuse("\\bFILTER\\s*\\(\\s*WHERE\\b", "aggregate FILTER");
        refuse("\\bhashtext\\b", "hashtext");
        refuse("\\bpg_current_snapshot\\b|\\bpg_snapshot\\w*", "pg_snapshot functions");
        refuse(
                "\\bPREPARE\\s+TRANSACTION\\b|\\b(COMMIT|ROLLBACK)\\s+PREPARED\\b",
                "two-phase commit");
        refuse("\\bpg_prepared_xacts\\b", "pg_prepared_xacts");
        refuse("\\bCREATE\\s+(UNIQUE\\s+)?INDEX\\b", "indexes");
        refuse("\\block_timeout\\b", "the setting lock_timeout");
        refuse("\\bgenerate_series\\b", "generate_series on compute nodes");
        refuse("\\bALTER\\s+COLUMN\\b[^;]*\\bUSING\\b", "ALTER COLUMN … USING");
        refuse("\\bNULLS\\s+NOT\\s+DISTINCT\\b", "NULLS NOT DISTINCT");
        refuse("\\bFROM\\s+STDIN\\b", "COPY FROM STDIN");
    }

    private static void refuse(String regex, String what) {
        REFUSED.put(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), what);
    }

    /** What Redshift refuses only inside a transaction block. */
    private static final Map<Pattern, String> REFUSED_IN_TRANSACTION =
            Map.of(
                    Pattern.compile("^\\s*TRUNCATE\\b", Pattern.CASE_INSENSITIVE),
                    "TRUNCATE, which commits the transaction it runs in,",
                    Pattern.compile(
                            "^\\s*ALTER\\s+TABLE\\b[^;]*\\bALTER\\s+COLUMN\\b[^;]*\\bTYPE\\b",
                            Pattern.CASE_INSENSITIVE),
                    "ALTER TABLE ALTER COLUMN … TYPE");

    private static final Pattern BEGIN =
            Pattern.compile("^\\s*(BEGIN|START\\s+TRANSACTION)\\b", Pattern.CASE_INSENSITIVE);

    private static final Pattern VARBYTE =
            Pattern.compile("\\bvarbyte\\s*\\(\\s*\\d+\\s*\\)", Pattern.CASE_INSENSITIVE);

    /** The start-up parameters PostgreSQL is given; the driver's others are dropped. */
    private static final Set<String> STARTUP =
            Set.of(
                    "user",
                    "database",
                    "application_name",
                    "client_encoding",
                    "DateStyle",
                    "TimeZone",
                    "extra_float_digits");

    private final String pgHost;
    private final int pgPort;
    private final S3Connection s3;
    private final ServerSocket server;
    private final List<String> statements = new CopyOnWriteArrayList<>();
    private final Map<Pattern, Integer> failures = new ConcurrentHashMap<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private S3Client s3Client;

    private RedshiftTwin(String pgHost, int pgPort, S3Connection s3) throws IOException {
        this.pgHost = pgHost;
        this.pgPort = pgPort;
        this.s3 = s3;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept = new Thread(this::accept, "redshift-twin-accept");
        accept.setDaemon(true);
        accept.start();
    }

    /**
     * A twin in front of the PostgreSQL at {@code pgHost:pgPort}, reading S3 through {@code s3}.
     */
    public static RedshiftTwin start(String pgHost, int pgPort, S3Connection s3)
            throws IOException {
        return new RedshiftTwin(pgHost, pgPort, s3);
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Every statement's text the twin was sent, in order. */
    public List<String> statements() {
        return List.copyOf(statements);
    }

    /** The next {@code times} statements matching {@code statement} fail with error 1023. */
    public void failNext(Pattern statement, int times) {
        failures.put(statement, times);
    }

    /** One S3 client for all COPYs (a client per COPY costs more than the COPY). */
    private synchronized S3Client s3Client() {
        if (s3Client == null) {
            s3Client = s3.open();
        }
        return s3Client;
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (this) {
            if (s3Client != null) {
                s3Client.close();
            }
        }
        for (Socket s : open) {
            s.close();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                open.add(client);
                Thread t = new Thread(() -> session(client), "redshift-twin-session");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    /** A backend or frontend message: its type and body (without type and length). */
    record Msg(char type, byte[] body) {
        byte[] bytes() {
            ByteBuffer b = ByteBuffer.allocate(5 + body.length);
            b.put((byte) type).putInt(4 + body.length).put(body);
            return b.array();
        }

        String cstring(int offset) {
            int end = offset;
            while (body[end] != 0) {
                end++;
            }
            return new String(body, offset, end - offset, StandardCharsets.UTF_8);
        }
    }

    static Msg read(DataInputStream in) throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException();
        }
        int len = in.readInt();
        byte[] body = new byte[len - 4];
        in.readFully(body);
        return new Msg((char) type, body);
    }

    private void session(Socket client) {
        try (client;
                Socket backend = new Socket(pgHost, pgPort)) {
            open.add(backend);
            new Session(client, backend).run();
        } catch (IOException e) {
            // the client or the server went away
        }
    }

    /** One client connection and its PostgreSQL connection. */
    private final class Session {
        final DataInputStream clientIn;
        final OutputStream clientOut;
        final DataInputStream backendIn;
        final OutputStream backendOut;
        volatile BlockingQueue<Msg> capture;
        volatile char status = 'I';

        /** A BEGIN was sent since the last ReadyForQuery (a Flush gets no ReadyForQuery). */
        volatile boolean begun;

        /** Per prepared statement's name, whether it reads the catalog ({@link TwinNames}). */
        final Map<String, Boolean> catalogStatements = new ConcurrentHashMap<>();

        Session(Socket client, Socket backend) throws IOException {
            clientIn =
                    new DataInputStream(new java.io.BufferedInputStream(client.getInputStream()));
            client.setTcpNoDelay(true);
            backend.setTcpNoDelay(true);
            clientOut = new BufferedOutputStream(client.getOutputStream(), 1 << 16);
            backendIn =
                    new DataInputStream(new java.io.BufferedInputStream(backend.getInputStream()));
            backendOut = new BufferedOutputStream(backend.getOutputStream(), 1 << 16);
        }

        void run() throws IOException {
            startup();
            Thread forward = new Thread(this::forward, "redshift-twin-backend");
            forward.setDaemon(true);
            forward.start();
            List<Msg> batch = new ArrayList<>();
            while (true) {
                Msg m;
                try {
                    m = read(clientIn);
                } catch (EOFException e) {
                    return;
                }
                switch (m.type()) {
                    case 'P', 'B', 'D', 'E', 'C' -> batch.add(m);
                    case 'S', 'H' -> {
                        batch.add(m);
                        batch(batch);
                        batch.clear();
                    }
                    case 'Q' -> query(m);
                    case 'X' -> {
                        backendOut.write(m.bytes());
                        return;
                    }
                    default -> backendOut.write(m.bytes());
                }
                backendOut.flush();
            }
        }

        private void startup() throws IOException {
            while (true) {
                int len = clientIn.readInt();
                byte[] body = new byte[len - 4];
                clientIn.readFully(body);
                int code = ByteBuffer.wrap(body).getInt();
                if (code == 80877103 || code == 80877104) { // SSL or GSS encryption request
                    clientOut.write('N');
                    clientOut.flush();
                    continue;
                }
                ByteArrayOutputStream params = new ByteArrayOutputStream();
                int i = 4;
                while (body[i] != 0) {
                    String key = cstring(body, i);
                    i += key.getBytes(StandardCharsets.UTF_8).length + 1;
                    String value = cstring(body, i);
                    i += value.getBytes(StandardCharsets.UTF_8).length + 1;
                    if (STARTUP.contains(key)) {
                        params.write(key.getBytes(StandardCharsets.UTF_8));
                        params.write(0);
                        params.write(value.getBytes(StandardCharsets.UTF_8));
                        params.write(0);
                    }
                }
                params.write(0);
                byte[] p = params.toByteArray();
                ByteBuffer out = ByteBuffer.allocate(8 + p.length);
                out.putInt(8 + p.length).putInt(196608).put(p);
                backendOut.write(out.array());
                backendOut.flush();
                authenticate();
                return;
            }
        }

        /**
         * The driver does not speak SCRAM-SHA-256, which the test PostgreSQL asks for: the twin
         * asks the driver for the password in clear (Redshift's own servers may, too) and does the
         * SCRAM exchange with PostgreSQL itself. Other requests pass through.
         */
        private void authenticate() throws IOException {
            Msg request = read(backendIn);
            if (request.type() != 'R' || ByteBuffer.wrap(request.body()).getInt() != 10) {
                clientOut.write(request.bytes());
                clientOut.flush();
                return;
            }
            clientOut.write(new Msg('R', new byte[] {0, 0, 0, 3}).bytes());
            clientOut.flush();
            Msg password = read(clientIn);
            Scram scram = new Scram(password.cstring(0));
            ByteArrayOutputStream first = new ByteArrayOutputStream();
            first.write(cstring("SCRAM-SHA-256"));
            byte[] clientFirst = scram.clientFirst().getBytes(StandardCharsets.UTF_8);
            first.write(ByteBuffer.allocate(4).putInt(clientFirst.length).array());
            first.write(clientFirst);
            backendOut.write(new Msg('p', first.toByteArray()).bytes());
            backendOut.flush();
            Msg serverFirst = read(backendIn);
            if (serverFirst.type() != 'R') {
                clientOut.write(serverFirst.bytes());
                clientOut.flush();
                return;
            }
            String text =
                    new String(
                            serverFirst.body(),
                            4,
                            serverFirst.body().length - 4,
                            StandardCharsets.UTF_8);
            backendOut.write(
                    new Msg('p', scram.clientFinal(text).getBytes(StandardCharsets.UTF_8)).bytes());
            backendOut.flush();
            Msg serverFinal = read(backendIn);
            if (serverFinal.type() != 'R') {
                clientOut.write(serverFinal.bytes());
                clientOut.flush();
            }
        }

        /** Backend to client, unless the twin is talking to the backend itself. */
        private void forward() {
            try {
                while (true) {
                    Msg m = originalNames(read(backendIn));
                    if (m.type() == 'Z') {
                        status = (char) m.body()[0];
                        begun = false;
                    }
                    BlockingQueue<Msg> q = capture;
                    if (q != null) {
                        q.add(m);
                    } else {
                        synchronized (clientOut) {
                            clientOut.write(m.bytes());
                            if (m.type() == 'Z' || backendIn.available() == 0) {
                                clientOut.flush();
                            }
                        }
                    }
                }
            } catch (IOException e) {
                // connection closed
            }
        }

        /**
         * {@code m} with every stand-in of a long name ({@link TwinNames}) replaced by the name: in
         * a RowDescription's labels, a DataRow's values, and an error's or notice's fields.
         */
        private Msg originalNames(Msg m) {
            if (!TwinNames.any()) {
                return m;
            }
            switch (m.type()) {
                case 'T' -> {
                    ByteBuffer in = ByteBuffer.wrap(m.body());
                    int n = in.getShort();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(m.body(), 0, 2);
                    for (int i = 0; i < n; i++) {
                        String label = cstring(m.body(), in.position());
                        in.position(
                                in.position() + label.getBytes(StandardCharsets.UTF_8).length + 1);
                        out.writeBytes(cstring(TwinNames.original(label)));
                        out.write(m.body(), in.position(), 18);
                        in.position(in.position() + 18);
                    }
                    return new Msg('T', out.toByteArray());
                }
                case 'D' -> {
                    ByteBuffer in = ByteBuffer.wrap(m.body());
                    int n = in.getShort();
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    out.write(m.body(), 0, 2);
                    boolean changed = false;
                    for (int i = 0; i < n; i++) {
                        int len = in.getInt();
                        byte[] value = len < 0 ? null : new byte[len];
                        if (value != null) {
                            in.get(value);
                            if (len > 13
                                    && len <= TwinNames.POSTGRES_BYTES
                                    && value[len - 13] == '_') {
                                String text = new String(value, StandardCharsets.UTF_8);
                                String original = TwinNames.original(text);
                                if (!original.equals(text)) {
                                    value = original.getBytes(StandardCharsets.UTF_8);
                                    changed = true;
                                }
                            }
                        }
                        out.writeBytes(
                                ByteBuffer.allocate(4)
                                        .putInt(value == null ? -1 : value.length)
                                        .array());
                        if (value != null) {
                            out.writeBytes(value);
                        }
                    }
                    return changed ? new Msg('D', out.toByteArray()) : m;
                }
                case 'E', 'N' -> {
                    String text = new String(m.body(), StandardCharsets.UTF_8);
                    String original = TwinNames.originals(text);
                    return original.equals(text)
                            ? m
                            : new Msg(m.type(), original.getBytes(StandardCharsets.UTF_8));
                }
                default -> {
                    return m;
                }
            }
        }

        /** A simple query: checked, carried out by the twin when it is a COPY, else passed on. */
        private void query(Msg m) throws IOException {
            String sql = m.cstring(0);
            statements.add(sql);
            String refusal = refusal(sql);
            if (refusal == null && !isCopy(sql)) {
                backendOut.write(new Msg('Q', cstring(rewrite(sql))).bytes());
                return;
            }
            startCapture();
            List<Msg> reply = new ArrayList<>();
            Msg error = refusal != null ? raise(refusal) : copy(rewrite(sql), reply);
            if (error != null) {
                reply.clear();
                reply.add(error);
            }
            reply.add(new Msg('Z', new byte[] {(byte) status}));
            endCapture(reply);
        }

        /** An extended-protocol batch up to Sync: passed on, except for COPY and refusals. */
        private void batch(List<Msg> batch) throws IOException {
            boolean special = false;
            List<Msg> rewritten = new ArrayList<>();
            for (Msg m : batch) {
                if (m.type() == 'P') {
                    String name = m.cstring(0);
                    int at = name.getBytes(StandardCharsets.UTF_8).length + 1;
                    String sql = m.cstring(at);
                    statements.add(sql);
                    if (BEGIN.matcher(sql).find()) {
                        begun = true;
                    }
                    if (isCopy(sql) || mayRefuse(sql)) {
                        special = true;
                    }
                    catalogStatements.put(name, TwinNames.catalog(sql));
                    String changed = rewrite(sql);
                    if (!changed.equals(sql)) {
                        ByteArrayOutputStream body = new ByteArrayOutputStream();
                        body.write(m.body(), 0, at);
                        body.write(cstring(changed));
                        int rest = at + sql.getBytes(StandardCharsets.UTF_8).length + 1;
                        body.write(m.body(), rest, m.body().length - rest);
                        m = new Msg('P', body.toByteArray());
                    }
                } else if (m.type() == 'B') {
                    m = bindNames(m);
                }
                rewritten.add(m);
            }
            if (!special) {
                for (Msg m : rewritten) {
                    backendOut.write(m.bytes());
                }
                return;
            }
            startCapture();
            List<Msg> reply = new ArrayList<>();
            boolean failed = false;
            List<Msg> pass = new ArrayList<>();
            for (int i = 0; i < rewritten.size(); i++) {
                Msg m = rewritten.get(i);
                if (m.type() == 'S' || m.type() == 'H') {
                    if (!failed && !pass.isEmpty()) {
                        failed = passOn(pass, reply);
                    }
                    pass.clear();
                    break;
                }
                if (failed) {
                    continue;
                }
                String sql = m.type() == 'P' ? batchSql(m) : null;
                String refusal = sql == null ? null : refusal(sql);
                if (sql != null && (isCopy(sql) || refusal != null)) {
                    if (!pass.isEmpty()) {
                        failed = passOn(pass, reply);
                        pass.clear();
                        if (failed) {
                            continue;
                        }
                    }
                    // the statement's Parse, Bind, Describe and Execute: answered by the twin
                    List<Msg> own = new ArrayList<>();
                    Msg error = refusal != null ? raise(refusal) : copy(sql, own);
                    int j = i;
                    while (j < rewritten.size()
                            && rewritten.get(j).type() != 'E'
                            && rewritten.get(j).type() != 'S') {
                        j++;
                    }
                    if (error != null) {
                        reply.add(error);
                        failed = true;
                    } else {
                        for (int k = i; k <= j && k < rewritten.size(); k++) {
                            Msg x = rewritten.get(k);
                            switch (x.type()) {
                                case 'P' -> reply.add(new Msg('1', new byte[0]));
                                case 'B' -> reply.add(new Msg('2', new byte[0]));
                                case 'D' -> {
                                    if (x.body()[0] == 'S') {
                                        reply.add(new Msg('t', new byte[] {0, 0}));
                                    }
                                    reply.add(new Msg('n', new byte[0]));
                                }
                                case 'E' -> reply.addAll(own);
                                default -> {}
                            }
                        }
                    }
                    i = rewritten.get(Math.min(j, rewritten.size() - 1)).type() == 'E' ? j : j - 1;
                    continue;
                }
                pass.add(m);
            }
            if (batch.get(batch.size() - 1).type() == 'S') {
                reply.add(new Msg('Z', new byte[] {(byte) status}));
            }
            endCapture(reply);
        }

        /**
         * A Bind of a catalog query with every text parameter over 63 bytes replaced by its
         * stand-in ({@link TwinNames}); other Binds as they are.
         */
        private Msg bindNames(Msg bind) throws IOException {
            byte[] body = bind.body();
            String portal = cstring(body, 0);
            int at = portal.getBytes(StandardCharsets.UTF_8).length + 1;
            String statement = cstring(body, at);
            if (!catalogStatements.getOrDefault(statement, false)) {
                return bind;
            }
            ByteBuffer in = ByteBuffer.wrap(body);
            in.position(at + statement.getBytes(StandardCharsets.UTF_8).length + 1);
            short[] formats = new short[in.getShort()];
            for (int i = 0; i < formats.length; i++) {
                formats[i] = in.getShort();
            }
            int params = in.getShort();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(body, 0, in.position());
            boolean changed = false;
            for (int i = 0; i < params; i++) {
                int len = in.getInt();
                short format = formats.length == 0 ? 0 : formats[formats.length == 1 ? 0 : i];
                byte[] value = len < 0 ? null : new byte[len];
                if (value != null) {
                    in.get(value);
                }
                if (value != null && format == 0 && len > TwinNames.POSTGRES_BYTES) {
                    String text = new String(value, StandardCharsets.UTF_8);
                    byte[] stored = TwinNames.stored(text).getBytes(StandardCharsets.UTF_8);
                    changed |= stored.length != value.length;
                    value = stored;
                }
                out.write(ByteBuffer.allocate(4).putInt(value == null ? -1 : value.length).array());
                if (value != null) {
                    out.write(value);
                }
            }
            out.write(body, in.position(), body.length - in.position());
            return changed ? new Msg('B', out.toByteArray()) : bind;
        }

        private String batchSql(Msg parse) {
            String name = parse.cstring(0);
            return parse.cstring(name.getBytes(StandardCharsets.UTF_8).length + 1);
        }

        /** Sends {@code pass} and a Sync; keeps the replies but the last ReadyForQuery. */
        private boolean passOn(List<Msg> pass, List<Msg> reply) throws IOException {
            for (Msg m : pass) {
                backendOut.write(m.bytes());
            }
            backendOut.write(new Msg('S', new byte[0]).bytes());
            backendOut.flush();
            boolean failed = false;
            for (Msg m : untilReady()) {
                if (m.type() == 'E') {
                    failed = true;
                }
                if (m.type() != 'Z') {
                    reply.add(m);
                }
            }
            return failed;
        }

        private void startCapture() throws IOException {
            backendOut.flush();
            capture = new LinkedBlockingQueue<>();
        }

        private void endCapture(List<Msg> reply) throws IOException {
            synchronized (clientOut) {
                capture = null;
                for (Msg m : reply) {
                    clientOut.write(m.bytes());
                }
                clientOut.flush();
            }
        }

        /** The backend's messages up to and including its next ReadyForQuery. */
        private List<Msg> untilReady() throws IOException {
            List<Msg> out = new ArrayList<>();
            while (true) {
                Msg m;
                try {
                    m = capture.poll(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted");
                }
                if (m == null) {
                    throw new IOException("the backend did not answer within 120 s");
                }
                out.add(m);
                if (m.type() == 'Z') {
                    return out;
                }
            }
        }

        /** Runs {@code sql} as a simple query; the backend's error, or null and its rows. */
        private Msg simple(String sql, List<List<String>> rows) throws IOException {
            backendOut.write(new Msg('Q', cstring(sql)).bytes());
            backendOut.flush();
            Msg error = null;
            for (Msg m : untilReady()) {
                if (m.type() == 'E' && error == null) {
                    error = m;
                } else if (m.type() == 'D' && rows != null) {
                    rows.add(dataRow(m));
                } else if (m.type() == 'C' && rows != null && rows.isEmpty()) {
                    lastTag = m.cstring(0);
                }
            }
            return error;
        }

        private String lastTag = "";

        /** Fails the backend's transaction (if any) with {@code message}; the error to send. */
        private Msg raise(String message) throws IOException {
            Msg error =
                    simple(
                            "DO $skippr_twin$ BEGIN RAISE EXCEPTION USING ERRCODE = 'XX000',"
                                    + " MESSAGE = '"
                                    + message.replace("'", "''")
                                    + "'; END $skippr_twin$",
                            null);
            return error;
        }

        /**
         * Carries out a Redshift COPY; the backend's or the twin's error, or null and its reply.
         */
        private Msg copy(String sql, List<Msg> reply) throws IOException {
            Copy copy;
            try {
                copy = Copy.parse(sql);
            } catch (IllegalArgumentException e) {
                return raise(e.getMessage());
            }
            byte[] data;
            try {
                data = copy.read(s3Client());
            } catch (IllegalArgumentException | IOException e) {
                return raise(e.getMessage());
            }
            List<List<String>> columns = new ArrayList<>();
            Msg error =
                    simple(
                            "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)"
                                    + " FROM pg_catalog.pg_attribute a WHERE a.attrelid = '"
                                    + copy.table.replace("'", "''")
                                    + "'::regclass AND a.attnum > 0 AND NOT a.attisdropped"
                                    + " ORDER BY a.attnum",
                            columns);
            if (error != null) {
                return error;
            }
            StringBuilder text = new StringBuilder();
            StringBuilder casts = new StringBuilder();
            for (int i = 0; i < columns.size(); i++) {
                String c = "c" + i;
                String type = columns.get(i).get(1);
                text.append(i == 0 ? "" : ", ").append(c).append(" text");
                casts.append(i == 0 ? "" : ", ")
                        .append(
                                type.equals("bytea")
                                        ? "decode(" + c + ", 'hex')"
                                        : "CAST(" + c + " AS " + type + ")");
            }
            String temp = "\"_skippr_twin_copy\"";
            error = simple("CREATE TEMP TABLE " + temp + " (" + text + ")", null);
            if (error != null) {
                return error;
            }
            backendOut.write(
                    new Msg(
                                    'Q',
                                    cstring(
                                            "COPY "
                                                    + temp
                                                    + " FROM STDIN WITH (FORMAT csv, NULL '"
                                                    + copy.nullAs.replace("'", "''")
                                                    + "')"))
                            .bytes());
            backendOut.flush();
            Msg first;
            try {
                first = capture.poll(120, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            if (first == null) {
                throw new IOException("the backend did not answer the COPY");
            }
            if (first.type() == 'G') {
                for (int at = 0; at < data.length; at += 1 << 16) {
                    int n = Math.min(1 << 16, data.length - at);
                    byte[] chunk = new byte[n];
                    System.arraycopy(data, at, chunk, 0, n);
                    backendOut.write(new Msg('d', chunk).bytes());
                }
                backendOut.write(new Msg('c', new byte[0]).bytes());
                backendOut.flush();
            }
            error = first.type() == 'E' ? first : null;
            for (Msg m : untilReady()) {
                if (m.type() == 'E' && error == null) {
                    error = m;
                }
            }
            if (error != null) {
                return error;
            }
            lastTag = "";
            error =
                    simple(
                            "INSERT INTO " + copy.table + " SELECT " + casts + " FROM " + temp,
                            new ArrayList<>());
            if (error != null) {
                return error;
            }
            String[] tag = lastTag.split(" ");
            String rows = tag[tag.length - 1];
            error = simple("DROP TABLE " + temp, null);
            if (error != null) {
                return error;
            }
            reply.add(new Msg('C', cstring("COPY " + rows)));
            return null;
        }

        /** Whether {@link #refusal} may refuse {@code sql}, without counting an injection. */
        private boolean mayRefuse(String sql) {
            String bare = withoutLiterals(sql);
            return failures.entrySet().stream()
                            .anyMatch(f -> f.getValue() > 0 && f.getKey().matcher(sql).find())
                    || REFUSED.keySet().stream().anyMatch(p -> p.matcher(bare).find())
                    || REFUSED_IN_TRANSACTION.keySet().stream()
                            .anyMatch(p -> p.matcher(bare).find());
        }

        /** The refusal of {@code sql}, or null when Redshift runs it. */
        private String refusal(String sql) {
            for (Map.Entry<Pattern, Integer> f : failures.entrySet()) {
                if (f.getValue() > 0 && f.getKey().matcher(sql).find()) {
                    failures.put(f.getKey(), f.getValue() - 1);
                    return "1023 Serializable isolation violation on table - 100001, transactions"
                            + " forming the cycle are: 1, 2 (pid:1)";
                }
            }
            String bare = withoutLiterals(sql);
            for (Map.Entry<Pattern, String> r : REFUSED.entrySet()) {
                if (r.getKey().matcher(bare).find() && !isCopy(sql)) {
                    return "Redshift does not support " + r.getValue() + " (Redshift twin)";
                }
            }
            if (status != 'I' || begun) {
                for (Map.Entry<Pattern, String> r : REFUSED_IN_TRANSACTION.entrySet()) {
                    if (r.getKey().matcher(bare).find()) {
                        return r.getValue()
                                + " cannot run inside a transaction block (Redshift twin)";
                    }
                }
            }
            return null;
        }
    }

    /** The text of {@code sql} with its string literals emptied, for matching constructs. */
    static String withoutLiterals(String sql) {
        return sql.replaceAll("'(?:[^']|'')*'", "''");
    }

    static boolean isCopy(String sql) {
        return sql.stripLeading().regionMatches(true, 0, "COPY", 0, 4);
    }

    /**
     * What PostgreSQL runs for what Redshift would: VARBYTE(n) is bytea, Redshift's functions
     * PostgreSQL lacks are their PostgreSQL expressions ({@link RedshiftFunctions}), and a name
     * over 63 bytes is its stand-in ({@link TwinNames}).
     */
    static String rewrite(String sql) {
        return TwinNames.forward(
                RedshiftFunctions.translate(VARBYTE.matcher(sql).replaceAll("bytea")));
    }

    private static List<String> dataRow(Msg m) {
        ByteBuffer b = ByteBuffer.wrap(m.body());
        int n = b.getShort();
        List<String> row = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int len = b.getInt();
            if (len < 0) {
                row.add(null);
            } else {
                byte[] v = new byte[len];
                b.get(v);
                row.add(new String(v, StandardCharsets.UTF_8));
            }
        }
        return row;
    }

    private static byte[] cstring(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[b.length + 1];
        System.arraycopy(b, 0, out, 0, b.length);
        return out;
    }

    private static String cstring(byte[] body, int offset) {
        int end = offset;
        while (body[end] != 0) {
            end++;
        }
        return new String(body, offset, end - offset, StandardCharsets.UTF_8);
    }

    /** A parsed Redshift COPY of the form Skippr sends. */
    static final class Copy {
        private static final Pattern HEAD =
                Pattern.compile(
                        "(?is)^\\s*COPY\\s+((?:\"(?:[^\"]|\"\")*\"|[\\w$]+)(?:\\s*\\.\\s*(?:\"(?:[^\"]|\"\")*\"|[\\w$]+))*)"
                                + "\\s+FROM\\s+'((?:[^']|'')*)'(.*)$");
        private static final Pattern TOKEN =
                Pattern.compile("(?s)\\s*('(?:[^'\\\\]|''|\\\\.)*'|[A-Za-z_0-9]+|;)");

        String table;
        String url;
        String nullAs = "\\N";
        boolean manifest;
        boolean csv;
        boolean gzip;
        boolean authorized;

        static Copy parse(String sql) {
            Matcher head = HEAD.matcher(sql);
            if (!head.matches()) {
                throw new IllegalArgumentException(
                        "the Redshift twin implements only COPY <table> FROM 's3://…' (Redshift"
                                + " twin)");
            }
            Copy c = new Copy();
            c.table = head.group(1);
            c.url = head.group(2).replace("''", "'");
            List<String> tokens = new ArrayList<>();
            Matcher t = TOKEN.matcher(head.group(3));
            int at = 0;
            while (at < head.group(3).length() && t.find(at) && t.start() == at) {
                tokens.add(t.group(1));
                at = t.end();
            }
            if (!head.group(3).substring(at).isBlank()) {
                throw new IllegalArgumentException(
                        "the Redshift twin cannot read COPY's options from '"
                                + head.group(3).substring(at).trim()
                                + "' (Redshift twin)");
            }
            for (int i = 0; i < tokens.size(); i++) {
                String word = tokens.get(i).toUpperCase(Locale.ROOT);
                switch (word) {
                    case "IAM_ROLE", "ACCESS_KEY_ID", "SECRET_ACCESS_KEY", "SESSION_TOKEN" -> {
                        c.literal(tokens, ++i, word);
                        c.authorized = true;
                    }
                    case "MANIFEST" -> c.manifest = true;
                    case "FORMAT" -> {
                        if (i + 1 < tokens.size() && tokens.get(i + 1).equalsIgnoreCase("AS")) {
                            i++;
                        }
                        if (i + 1 >= tokens.size() || !tokens.get(++i).equalsIgnoreCase("CSV")) {
                            throw new IllegalArgumentException(
                                    "the Redshift twin loads FORMAT AS CSV only (Redshift twin)");
                        }
                        c.csv = true;
                    }
                    case "CSV" -> c.csv = true;
                    case "GZIP" -> c.gzip = true;
                    case "NULL" -> {
                        if (i + 1 < tokens.size() && tokens.get(i + 1).equalsIgnoreCase("AS")) {
                            i++;
                        }
                        c.nullAs = c.literal(tokens, ++i, word);
                    }
                    case "TIMEFORMAT", "DATEFORMAT" -> {
                        if (i + 1 < tokens.size() && tokens.get(i + 1).equalsIgnoreCase("AS")) {
                            i++;
                        }
                        if (!c.literal(tokens, ++i, word).equals("auto")) {
                            throw new IllegalArgumentException(
                                    "the Redshift twin implements " + word + " 'auto' only");
                        }
                    }
                    case "REGION" -> {
                        if (i + 1 < tokens.size() && tokens.get(i + 1).equalsIgnoreCase("AS")) {
                            i++;
                        }
                        c.literal(tokens, ++i, word);
                    }
                    case "COMPUPDATE", "STATUPDATE" -> {
                        String v = i + 1 < tokens.size() ? tokens.get(++i) : "";
                        if (!v.equalsIgnoreCase("OFF") && !v.equalsIgnoreCase("ON")) {
                            throw new IllegalArgumentException(word + " takes ON or OFF");
                        }
                    }
                    case ";" -> {}
                    default ->
                            throw new IllegalArgumentException(
                                    "the Redshift twin does not implement the COPY option "
                                            + tokens.get(i)
                                            + " (Redshift twin)");
                }
            }
            if (!c.authorized) {
                throw new IllegalArgumentException(
                        "COPY needs IAM_ROLE or ACCESS_KEY_ID and SECRET_ACCESS_KEY");
            }
            if (!c.manifest || !c.csv) {
                throw new IllegalArgumentException(
                        "the Redshift twin loads MANIFEST FORMAT AS CSV only (Redshift twin)");
            }
            return c;
        }

        /** The value of the literal at {@code i}, with Redshift's backslash escapes. */
        private String literal(List<String> tokens, int i, String option) {
            if (i >= tokens.size() || !tokens.get(i).startsWith("'")) {
                throw new IllegalArgumentException(option + " needs a quoted value");
            }
            String raw = tokens.get(i);
            String inner = raw.substring(1, raw.length() - 1).replace("''", "'");
            StringBuilder out = new StringBuilder();
            for (int k = 0; k < inner.length(); k++) {
                char ch = inner.charAt(k);
                if (ch == '\\' && k + 1 < inner.length()) {
                    out.append(inner.charAt(++k));
                } else {
                    out.append(ch);
                }
            }
            return out.toString();
        }

        /** The manifest's files, read and decompressed, one after the other. */
        byte[] read(S3Client client) throws IOException {
            if (!url.startsWith("s3://")) {
                throw new IllegalArgumentException("COPY reads s3:// URLs, not " + url);
            }
            JsonNode manifest;
            try {
                manifest = JSON.readTree(get(client, url));
            } catch (NoSuchKeyException e) {
                throw new IllegalArgumentException(
                        "Problem reading manifest file - S3ServiceException:The specified key"
                                + " does not exist.,Status 404,Error NoSuchKey,Rid twin:"
                                + " "
                                + url);
            }
            if (!manifest.path("entries").isArray()) {
                throw new IllegalArgumentException("Manifest file is not in correct json format");
            }
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (JsonNode entry : manifest.path("entries")) {
                String file = entry.path("url").asText();
                byte[] bytes;
                try {
                    bytes = get(client, file);
                } catch (NoSuchKeyException e) {
                    if (entry.path("mandatory").asBoolean(false)) {
                        throw new IllegalArgumentException(
                                "Manifest file contains mandatory file which was not found: "
                                        + file);
                    }
                    continue;
                }
                if (gzip) {
                    try (InputStream in =
                            new GZIPInputStream(new java.io.ByteArrayInputStream(bytes))) {
                        in.transferTo(all);
                    }
                } else {
                    all.write(bytes);
                }
            }
            return all.toByteArray();
        }

        private static byte[] get(S3Client client, String url) {
            String rest = url.substring("s3://".length());
            int slash = rest.indexOf('/');
            return client.getObjectAsBytes(
                            b -> b.bucket(rest.substring(0, slash)).key(rest.substring(slash + 1)))
                    .asByteArray();
        }
    }

    /** The client side of SCRAM-SHA-256 (RFC 5802, without channel binding). */
    static final class Scram {
        private final String password;
        private final String nonce;
        private String clientFirstBare;

        Scram(String password) {
            this.password = password;
            byte[] random = new byte[18];
            new java.security.SecureRandom().nextBytes(random);
            this.nonce = java.util.Base64.getEncoder().encodeToString(random);
        }

        String clientFirst() {
            clientFirstBare = "n=,r=" + nonce;
            return "n,," + clientFirstBare;
        }

        String clientFinal(String serverFirst) throws IOException {
            Map<String, String> f = new LinkedHashMap<>();
            for (String part : serverFirst.split(",")) {
                f.put(part.substring(0, 1), part.substring(2));
            }
            try {
                byte[] salt = java.util.Base64.getDecoder().decode(f.get("s"));
                int iterations = Integer.parseInt(f.get("i"));
                javax.crypto.SecretKeyFactory pbkdf2 =
                        javax.crypto.SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256");
                byte[] salted =
                        pbkdf2.generateSecret(
                                        new javax.crypto.spec.PBEKeySpec(
                                                password.toCharArray(), salt, iterations, 256))
                                .getEncoded();
                byte[] clientKey = hmac(salted, "Client Key");
                byte[] storedKey =
                        java.security.MessageDigest.getInstance("SHA-256").digest(clientKey);
                String withoutProof = "c=biws,r=" + f.get("r");
                String auth = clientFirstBare + "," + serverFirst + "," + withoutProof;
                byte[] signature = hmac(storedKey, auth);
                byte[] proof = new byte[clientKey.length];
                for (int i = 0; i < proof.length; i++) {
                    proof[i] = (byte) (clientKey[i] ^ signature[i]);
                }
                return withoutProof + ",p=" + java.util.Base64.getEncoder().encodeToString(proof);
            } catch (java.security.GeneralSecurityException e) {
                throw new IOException(e);
            }
        }

        private static byte[] hmac(byte[] key, String text)
                throws java.security.GeneralSecurityException {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
