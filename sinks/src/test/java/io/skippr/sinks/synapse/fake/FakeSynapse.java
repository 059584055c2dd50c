package io.skippr.sinks.synapse.fake;

import io.skippr.sinks.testing.IdleConnections;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An in-process stand-in for a Synapse dedicated SQL pool, as far as the Synapse sink's load path
 * needs one: a TDS 7.4 listener on 127.0.0.1 ({@link TdsSession}; the driver connects with {@code
 * encrypt=false}) whose statements run, translated from T-SQL ({@link Tsql}), on a PostgreSQL
 * database of its own on the test server, and whose {@code COPY INTO} reads Parquet from the test
 * Azurite ({@link CopyInto}). One SQL login ({@link #user()}, {@link #password()}) and one database
 * ({@value #DATABASE}). See README.md for what it implements and what it refuses.
 */
public final class FakeSynapse implements AutoCloseable {
    /** The only database (SQL pool) the fake has. */
    public static final String DATABASE = "skippr_pool";

    static final String SERVER = "fake-synapse";

    private final ServerSocket server;
    private final String pgDatabase;
    private final String password;
    private final Map<String, String> originals = new ConcurrentHashMap<>();
    private final List<String> statements = new ArrayList<>();
    private final Thread acceptor;

    /**
     * Backing connections of ended sessions, for the next logins: the sink logs in for each
     * connection it opens, and a new backing connection costs a PostgreSQL login. Server-side
     * prepared statements are off on them (see {@link IdleConnections}).
     */
    private final IdleConnections sessionConnections;

    private FakeSynapse() throws IOException, SQLException {
        pgDatabase =
                "skippr_syn_" + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        byte[] random = new byte[12];
        ThreadLocalRandom.current().nextBytes(random);
        password = "Pw-" + HexFormat.of().formatHex(random);
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("CREATE DATABASE " + pgDatabase);
        }
        try (Connection c = pg(pgDatabase);
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"_fake_synapse\"");
            st.execute(
                    "CREATE TABLE \"_fake_synapse\".names (stand_in text PRIMARY KEY, name text"
                            + " NOT NULL)");
            st.execute(COLUMNS_VIEW);
        }
        String database = pgDatabase;
        sessionConnections = new IdleConnections(() -> pg(database, "&prepareThreshold=0"));
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "fake-synapse-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** INFORMATION_SCHEMA.COLUMNS as Synapse shows it: T-SQL type names, names whole. */
    private static final String COLUMNS_VIEW =
            "CREATE VIEW \"_fake_synapse\".columns AS SELECT"
                    + " coalesce(ns.name, c.table_schema::text) AS table_schema,"
                    + " coalesce(nt.name, c.table_name::text) AS table_name,"
                    + " coalesce(nc.name, c.column_name::text) AS column_name,"
                    + " c.ordinal_position::int AS ordinal_position,"
                    + " CASE c.data_type WHEN 'character varying' THEN 'nvarchar'"
                    + " WHEN 'text' THEN 'nvarchar' WHEN 'integer' THEN 'int'"
                    + " WHEN 'boolean' THEN 'bit' WHEN 'double precision' THEN 'float'"
                    + " WHEN 'numeric' THEN 'decimal' WHEN 'time without time zone' THEN 'time'"
                    + " WHEN 'timestamp without time zone' THEN 'datetime2'"
                    + " WHEN 'timestamp with time zone' THEN 'datetimeoffset'"
                    + " WHEN 'bytea' THEN 'varbinary' WHEN 'uuid' THEN 'uniqueidentifier'"
                    + " ELSE c.data_type::text END AS data_type,"
                    + " CASE WHEN c.data_type = 'text' THEN -1 WHEN c.data_type = 'bytea' THEN 8000"
                    + " ELSE c.character_maximum_length::int END AS character_maximum_length,"
                    + " CASE WHEN c.data_type = 'numeric' THEN c.numeric_precision::int END"
                    + " AS numeric_precision,"
                    + " CASE WHEN c.data_type = 'numeric' THEN c.numeric_scale::int END"
                    + " AS numeric_scale,"
                    + " CASE WHEN c.data_type LIKE 'time%' THEN c.datetime_precision::int END"
                    + " AS datetime_precision"
                    + " FROM information_schema.columns c"
                    + " LEFT JOIN \"_fake_synapse\".names ns ON ns.stand_in = c.table_schema"
                    + " LEFT JOIN \"_fake_synapse\".names nt ON nt.stand_in = c.table_name"
                    + " LEFT JOIN \"_fake_synapse\".names nc ON nc.stand_in = c.column_name"
                    + " WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema',"
                    + " '_fake_synapse')";

    /** Starts a fake on a free port of 127.0.0.1. */
    public static FakeSynapse start() throws IOException, SQLException {
        return new FakeSynapse();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                Thread session = new Thread(new TdsSession(this, socket), "fake-synapse-session");
                session.setDaemon(true);
                session.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The one SQL login. */
    public String user() {
        return "skippr_loader";
    }

    public String password() {
        return password;
    }

    /** The Azurite blob endpoint COPY INTO reads from: {@code http://host:port/<account>}. */
    public String blobEndpoint() {
        return env("SKIPPR_TEST_AZURE_ENDPOINT").replaceAll("/+$", "");
    }

    /** A backing connection for a new session: an ended session's, or a new one. */
    Connection sessionBacking() throws SQLException {
        return sessionConnections.take();
    }

    /**
     * An ended session's backing connection, for the next login; it is rolled back and cleared
     * first, so the next session starts as on a new connection.
     */
    void release(Connection backing) {
        sessionConnections.giveBack(backing, true);
    }

    /** A new connection to the backing PostgreSQL database, to look behind the fake. */
    public Connection backing() throws SQLException {
        return pg(pgDatabase);
    }

    /** The backing name of a Synapse name: itself, or over 63 bytes a stand-in. */
    public String backingName(String name) {
        if (!Tsql.tooLong(name)) {
            return name;
        }
        String standIn = "_syn_" + sha(name).substring(0, 40);
        if (originals.putIfAbsent(standIn, name) == null) {
            try (Connection c = backing();
                    PreparedStatement st =
                            c.prepareStatement(
                                    "INSERT INTO \"_fake_synapse\".names VALUES (?, ?)"
                                            + " ON CONFLICT DO NOTHING")) {
                st.setString(1, standIn);
                st.setString(2, name);
                st.executeUpdate();
            } catch (SQLException e) {
                originals.remove(standIn);
                throw new IllegalStateException("recording the stand-in of " + name, e);
            }
        }
        return standIn;
    }

    /** The Synapse name of a backing name ({@link #backingName}). */
    public String original(String backingName) {
        return originals.getOrDefault(backingName, backingName);
    }

    Tsql.Names names() {
        return this::backingName;
    }

    /** Every statement the fake received, in order. */
    public synchronized List<String> statements() {
        return List.copyOf(statements);
    }

    synchronized void log(String sql) {
        if (statements.size() < 100_000) {
            statements.add(sql);
        }
    }

    private static String sha(String s) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new AssertionError(
                    name
                            + " is not set: the fake Synapse needs the PostgreSQL and Azurite"
                            + " servers that scripts/test starts; run it through scripts/test");
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
                        + "?sslmode=disable&stringtype=unspecified&options=-c%20TimeZone%3DUTC"
                        + options,
                env("SKIPPR_TEST_PG_USER"),
                env("SKIPPR_TEST_PG_PASSWORD"));
    }

    /** Whether the backing database has table {@code table} of schema {@code schema}. */
    public boolean exists(String schema, String table) throws SQLException {
        try (Connection c = backing();
                PreparedStatement st = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
            st.setString(1, Tsql.quote(backingName(schema)) + "." + Tsql.quote(backingName(table)));
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    @Override
    public void close() throws IOException, SQLException {
        server.close();
        sessionConnections.close();
        try (Connection admin = pg(env("SKIPPR_TEST_PG_DATABASE"));
                Statement st = admin.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + pgDatabase + " WITH (FORCE)");
        }
    }
}
