package io.skippr.sinks.snowflake.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official Snowflake driver against {@link FakeSnowflake}: logins, identifiers, transactions
 * with Snowflake's rules, PUT and COPY INTO of Parquet through the driver's own S3 client, and the
 * refusal of what the fake does not implement. Needs the test PostgreSQL and S3Proxy.
 */
class FakeSnowflakeITCase {
    private static final String USER = "skippr_test";
    private static final String PASSWORD = "fake-pass-1";
    private static final int ROWS = 1000;

    private static FakeSnowflake fake;

    @BeforeAll
    static void start() throws Exception {
        fake = FakeSnowflake.start().addUser(USER, PASSWORD);
    }

    @AfterAll
    static void stop() throws Exception {
        fake.close();
    }

    private static Connection connect() throws SQLException {
        Properties p = fake.properties(USER);
        p.setProperty("password", PASSWORD);
        return DriverManager.getConnection(fake.url(), p);
    }

    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    private static long count(Connection c, String table) throws SQLException {
        return Long.parseLong(rows(c, "SELECT COUNT(*) FROM " + table).get(0).get(0));
    }

    @Test
    void aPasswordLoginOpensASessionThatAHeartbeatKeepsAndCloseEnds() throws Exception {
        int before = fake.sessions();
        try (Connection c = connect()) {
            assertThat(rows(c, "SELECT 1 + 1")).containsExactly(List.of("2"));
            assertThat(fake.sessions()).isEqualTo(before + 1);
            int heartbeats = fake.heartbeats();
            assertThat(c.isValid(5)).isTrue();
            assertThat(fake.heartbeats()).isEqualTo(heartbeats + 1);
        }
        assertThat(fake.sessions()).isEqualTo(before);

        Properties wrong = fake.properties(USER);
        wrong.setProperty("password", "not-the-password");
        assertThatThrownBy(() -> DriverManager.getConnection(fake.url(), wrong))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("Incorrect username or password was specified.")
                .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(390100));
    }

    @Test
    void aKeyPairLoginChecksTheSignatureAgainstTheUsersPublicKey() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair key = rsa.generateKeyPair();
        KeyPair other = rsa.generateKeyPair();
        fake.addUser("skippr_key_user", key.getPublic());

        Properties p = fake.properties("skippr_key_user");
        p.setProperty("authenticator", "SNOWFLAKE_JWT");
        p.put("privateKey", key.getPrivate());
        try (Connection c = DriverManager.getConnection(fake.url(), p)) {
            assertThat(rows(c, "SELECT 7")).containsExactly(List.of("7"));
        }
        p.put("privateKey", other.getPrivate());
        assertThatThrownBy(() -> DriverManager.getConnection(fake.url(), p))
                .isInstanceOf(SQLException.class)
                .hasMessageContaining("JWT token is invalid.");
    }

    /**
     * Snowflake keeps names of up to 255 characters: a 100-character table and column name (over
     * PostgreSQL's 63 bytes) are created, filled, read back under their whole names as column
     * labels, found in INFORMATION_SCHEMA by their whole names, and named whole in an error, while
     * PostgreSQL holds them under their stand-ins.
     */
    @Test
    void namesOver63BytesAreKeptWholeAsInSnowflake() throws Exception {
        String table = "t".repeat(90) + "_long_tabl";
        String column = "c".repeat(90) + "_long_colu";
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA \"long_s\"");
            st.execute(
                    "CREATE TABLE \"long_s\".\""
                            + table
                            + "\" (\"id\" NUMBER(38,0), \""
                            + column
                            + "\" VARCHAR)");
            st.execute("INSERT INTO \"long_s\".\"" + table + "\" VALUES (1, 'a'), (2, 'b')");
            try (ResultSet rs =
                    st.executeQuery(
                            "SELECT \""
                                    + column
                                    + "\" FROM \"long_s\".\""
                                    + table
                                    + "\" ORDER BY \"id\"")) {
                assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo(column);
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("a");
            }
            try (var ps =
                    c.prepareStatement(
                            "SELECT TABLE_NAME, COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS"
                                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                    + " ORDER BY ORDINAL_POSITION")) {
                ps.setString(1, "long_s");
                ps.setString(2, table);
                List<List<String>> found = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.add(List.of(rs.getString(1), rs.getString(2)));
                    }
                }
                assertThat(found).containsExactly(List.of(table, "id"), List.of(table, column));
            }
            assertThatThrownBy(
                            () ->
                                    st.execute(
                                            "CREATE TABLE \"long_s\".\""
                                                    + table
                                                    + "\" (\"id\" NUMBER(38,0))"))
                    .hasMessageContaining("Object '" + table + "' already exists.");
        }
        try (Connection pg = fake.backing();
                ResultSet rs =
                        pg.createStatement()
                                .executeQuery(
                                        "SELECT count(*) FROM \"long_s\".\""
                                                + FakeSnowflake.backingName(table)
                                                + "\"")) {
            assertThat(FakeSnowflake.backingName(table)).hasSize(63).startsWith("t".repeat(50));
            assertThat(rs.next()).isTrue();
            assertThat(rs.getLong(1)).isEqualTo(2);
        }
    }

    @Test
    void unquotedNamesFoldToUpperCaseAndAHostileQuotedNameIsKeptAsWritten() throws Exception {
        String hostile = "\"we\"\"ird Tab.le; DROP \"";
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA names_s");
            st.execute("CREATE TABLE names_s.plain_t (id INT, label VARCHAR)");
            st.execute(
                    "CREATE TABLE names_s."
                            + hostile
                            + " (\"Id\" NUMBER(38,0), \"va;l'ue\" VARCHAR)");
            st.execute("INSERT INTO names_s.Plain_T (ID, Label) VALUES (1, 'it''s \\'quoted\\'')");
            assertThat(
                            st.executeUpdate(
                                    "INSERT INTO names_s."
                                            + hostile
                                            + " VALUES (5, 'x'), (6, 'y')"))
                    .isEqualTo(2);

            assertThat(rows(c, "SELECT id, label FROM names_s.plain_t"))
                    .containsExactly(List.of("1", "it's 'quoted'"));
            assertThat(
                            rows(
                                    c,
                                    "SELECT \"Id\", \"va;l'ue\" FROM "
                                            + FakeSnowflake.DATABASE
                                            + ".names_s."
                                            + hostile
                                            + " ORDER BY 1"))
                    .containsExactly(List.of("5", "x"), List.of("6", "y"));
            assertThatThrownBy(() -> rows(c, "SELECT * FROM names_s.\"plain_t\""))
                    .hasMessage(
                            "SQL compilation error:\nObject 'NAMES_S.plain_t' does not exist or not"
                                    + " authorized.");
        }
        try (Connection pg = fake.backing()) {
            assertThat(
                            rows(
                                    pg,
                                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'NAMES_S' ORDER BY 1"))
                    .containsExactly(List.of("PLAIN_T"), List.of("we\"ird Tab.le; DROP "));
        }
    }

    @Test
    void aRolledBackTransactionLeavesNothingAndAFailedStatementDoesNotEndTheTransaction()
            throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE tx_t (id NUMBER NOT NULL, note VARCHAR(5))");

            st.execute("BEGIN");
            st.executeUpdate("INSERT INTO tx_t VALUES (1, 'a')");
            assertThat(count(c, "tx_t")).isEqualTo(1);
            st.execute("ROLLBACK");
            assertThat(count(c, "tx_t")).isZero();

            st.execute("BEGIN TRANSACTION");
            st.executeUpdate("INSERT INTO tx_t VALUES (2, 'b')");
            assertThatThrownBy(() -> st.executeUpdate("INSERT INTO tx_t VALUES (NULL, 'c')"))
                    .hasMessageContaining("NULL result in a non-nullable column")
                    .satisfies(
                            e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(100072));
            st.executeUpdate("INSERT INTO tx_t VALUES (3, 'd')");
            st.execute("COMMIT");
            assertThat(rows(c, "SELECT id, note FROM tx_t ORDER BY id"))
                    .containsExactly(List.of("2", "b"), List.of("3", "d"));

            // DDL commits the open transaction first, as in Snowflake: the ROLLBACK has nothing
            // left
            st.execute("BEGIN");
            st.executeUpdate("INSERT INTO tx_t VALUES (4, 'e')");
            st.execute("CREATE TABLE tx_other (id NUMBER)");
            st.execute("ROLLBACK");
            assertThat(count(c, "tx_t")).isEqualTo(3);

            // the JDBC API's transactions: setAutoCommit(false) is ALTER SESSION SET AUTOCOMMIT
            c.setAutoCommit(false);
            st.executeUpdate("INSERT INTO tx_t VALUES (5, 'f')");
            c.rollback();
            st.executeUpdate("INSERT INTO tx_t VALUES (6, 'g')");
            c.commit();
            c.setAutoCommit(true);
            assertThat(rows(c, "SELECT SUM(id), COUNT(*) FROM tx_t"))
                    .containsExactly(List.of("15", "4"));
        }
    }

    @Test
    void aPutParquetFileIsCopiedIntoTheTableOnceAndRemoved(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("part-0.parquet");
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = duck.createStatement()) {
            st.execute(
                    "COPY (SELECT i AS id,"
                            + " CASE WHEN i % 10 = 0 THEN NULL ELSE 'näme ' || i || ' \"q''' END AS name,"
                            + " CAST(i * 1.25 AS DECIMAL(12,2)) AS amount,"
                            + " TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i) + to_milliseconds(i * 7 % 1000) AS ts,"
                            + " i % 2 = 0 AS flag"
                            + " FROM range(1, "
                            + (ROWS + 1)
                            + ") t(i)) TO '"
                            + file
                            + "' (FORMAT PARQUET)");
        }
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE loaded (ID NUMBER(38,0), NAME VARCHAR, AMOUNT NUMBER(12,2), TS TIMESTAMP_NTZ, FLAG BOOLEAN, EXTRA VARCHAR)");
            st.execute("CREATE STAGE skippr_stage");
            try (ResultSet put =
                    st.executeQuery(
                            "PUT file://" + file + " @skippr_stage/run-1/ AUTO_COMPRESS = FALSE")) {
                assertThat(put.next()).isTrue();
                assertThat(put.getString("status")).isEqualTo("UPLOADED");
                assertThat(put.getString("target")).isEqualTo("part-0.parquet");
            }
            assertThat(rows(c, "LIST @skippr_stage"))
                    .extracting(r -> r.get(0) + " " + r.get(1))
                    .containsExactly(
                            "skippr_stage/run-1/part-0.parquet " + java.nio.file.Files.size(file));

            String copy =
                    "COPY INTO loaded FROM @skippr_stage/run-1/ FILES = ('part-0.parquet')"
                            + " FILE_FORMAT = (TYPE = PARQUET) MATCH_BY_COLUMN_NAME = CASE_INSENSITIVE";
            // a load in a rolled-back transaction leaves neither rows nor load history
            st.execute("BEGIN");
            assertThat(rows(c, copy))
                    .extracting(r -> r.get(1) + " " + r.get(3))
                    .containsExactly("LOADED " + ROWS);
            st.execute("ROLLBACK");
            assertThat(count(c, "loaded")).isZero();

            List<List<String>> loaded = rows(c, copy);
            assertThat(loaded).hasSize(1);
            assertThat(loaded.get(0).subList(0, 4))
                    .containsExactly(
                            "skippr_stage/run-1/part-0.parquet", "LOADED", "" + ROWS, "" + ROWS);
            // the same file again: skipped by the load history, as Snowflake does
            assertThat(rows(c, copy))
                    .containsExactly(List.of("Copy executed with 0 files processed."));

            assertThat(count(c, "loaded")).isEqualTo(ROWS);
            assertThat(checksum(c)).isEqualTo(expectedChecksum());

            assertThat(rows(c, "REMOVE @skippr_stage/run-1/"))
                    .containsExactly(List.of("skippr_stage/run-1/part-0.parquet", "removed"));
            assertThat(rows(c, "LIST @skippr_stage")).isEmpty();
        }
    }

    /** SHA-256 of every row read through the driver's ResultSet, typed. */
    private static String checksum(Connection c) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT id, name, amount, ts, flag, extra FROM loaded ORDER BY id")) {
            while (rs.next()) {
                long id = rs.getLong(1);
                String name = rs.getString(2);
                BigDecimal amount = rs.getBigDecimal(3);
                LocalDateTime ts = rs.getTimestamp(4).toLocalDateTime();
                boolean flag = rs.getBoolean(5);
                String extra = rs.getString(6);
                sha.update(
                        (id
                                        + "|"
                                        + name
                                        + "|"
                                        + amount.toPlainString()
                                        + "|"
                                        + ts
                                        + "|"
                                        + flag
                                        + "|"
                                        + extra
                                        + "\n")
                                .getBytes(StandardCharsets.UTF_8));
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** The same over the rows the Parquet file was written from. */
    private static String expectedChecksum() throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (long i = 1; i <= ROWS; i++) {
            String name = i % 10 == 0 ? null : "näme " + i + " \"q'";
            BigDecimal amount = BigDecimal.valueOf(i * 125, 2);
            LocalDateTime ts =
                    LocalDateTime.of(2024, 1, 1, 0, 0)
                            .plusSeconds(i)
                            .plusNanos((i * 7 % 1000) * 1_000_000L);
            sha.update(
                    (i
                                    + "|"
                                    + name
                                    + "|"
                                    + amount.toPlainString()
                                    + "|"
                                    + ts
                                    + "|"
                                    + (i % 2 == 0)
                                    + "|null\n")
                            .getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void whatTheFakeDoesNotImplementIsRefusedWithASnowflakeError() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            assertThatThrownBy(() -> st.execute("SHOW TABLES"))
                    .hasMessage(
                            "Unsupported feature 'SHOW' (not implemented by the fake Snowflake).")
                    .satisfies(
                            e -> {
                                assertThat(((SQLException) e).getErrorCode()).isEqualTo(2);
                                assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000");
                            });
            st.execute("CREATE TABLE refused_t (id NUMBER)");
            st.execute("CREATE STAGE refused_stage");
            assertThatThrownBy(
                            () ->
                                    st.execute(
                                            "COPY INTO refused_t FROM @refused_stage FILE_FORMAT = (TYPE = PARQUET) ON_ERROR = CONTINUE"))
                    .hasMessage(
                            "Unsupported feature 'ON_ERROR = CONTINUE' (not implemented by the fake Snowflake).");
            assertThatThrownBy(() -> st.execute("COPY INTO refused_t FROM @refused_stage"))
                    .hasMessage(
                            "Unsupported feature 'COPY INTO without FILE_FORMAT = (TYPE = PARQUET)' (not implemented by the fake Snowflake).");
            assertThatThrownBy(() -> st.execute("SELECT 1; SELECT 2"))
                    .hasMessage(
                            "Actual statement count 2 did not match the desired statement count 1.");
        }
    }

    @Test
    void cancellingARunningStatementAbortsItOnTheServer() throws Exception {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            Instant start = Instant.now();
            CompletableFuture<Throwable> outcome =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    st.executeQuery("SELECT SYSTEM$WAIT(60)").close();
                                    return null;
                                } catch (Throwable t) {
                                    return t;
                                }
                            });
            Instant deadline = Instant.now().plusSeconds(30);
            while (!fake.running()) {
                assertThat(Instant.now()).isBefore(deadline);
                Thread.onSpinWait();
            }
            st.cancel();
            Throwable failure = outcome.get();
            assertThat(failure)
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("SQL execution canceled");
            assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(30));
        }
    }
}
