package io.skippr.sinks.snowflake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Secret;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.RecordedRequest;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommitter;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.SqlSinkSettings;
import io.skippr.sinks.sql.SqlSinks;
import io.skippr.sinks.sql.SqlStagingWriter;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.staged.StagedLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.AlgorithmParameters;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Snowflake sink's own parts against the fake Snowflake: logins (password, key pair with and
 * without a passphrase), the internal stage with its metadata folders, and the dialect's catalog
 * reads through {@code INFORMATION_SCHEMA}. The commit protocol is the conformance kit's ({@code
 * SnowflakeConformanceITCase}).
 */
class SnowflakeSinkITCase {
    private static TestSnowflake snowflake;

    @TempDir Path dir;

    @BeforeAll
    static void start() throws Exception {
        snowflake = new TestSnowflake();
    }

    @AfterAll
    static void stop() throws Exception {
        snowflake.close();
    }

    private static SnowflakeLogin login(String user, String password, String key, String phrase) {
        return new SnowflakeLogin(
                "FAKE",
                snowflake.endpoint(),
                user,
                password == null ? null : new Secret(password),
                key,
                phrase == null ? null : new Secret(phrase),
                "SKIPPR_TEST",
                "FAKE_WH",
                "FAKE_ROLE");
    }

    private static String one(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void aPasswordLoginWorksAndAWrongPasswordIsNamedWithoutTheSecret() throws Exception {
        SnowflakeLogin right = login(TestSnowflake.USER, TestSnowflake.PASSWORD, null, null);
        try (Connection c = new SnowflakeDatabase(right, stage(right, "s1")).connect()) {
            assertThat(one(c, "SELECT 41 + 1")).isEqualTo("42");
        }
        SnowflakeLogin wrong = login(TestSnowflake.USER, "not-the-pw-3141", null, null);
        assertThatThrownBy(() -> new SnowflakeDatabase(wrong, stage(wrong, "s1")).connect())
                .hasMessageStartingWith(
                        "cannot log in: Incorrect username or password was specified.")
                .hasMessageContaining("user skippr_loader")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not-the-pw-3141"));
    }

    @Test
    void aKeyPairLoginReadsAPkcs8KeyPlainOrEncryptedWithItsPassphrase() throws Exception {
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        KeyPair key = rsa.generateKeyPair();
        snowflake.fake.addUser("key_user", key.getPublic());

        Path plain = dir.resolve("plain.p8");
        Files.writeString(plain, pem("PRIVATE KEY", key.getPrivate().getEncoded()));
        try (Connection c = login("key_user", null, plain.toString(), null).connect()) {
            assertThat(one(c, "SELECT 1")).isEqualTo("1");
        }

        Path encrypted = dir.resolve("encrypted.p8");
        Files.writeString(encrypted, pem("ENCRYPTED PRIVATE KEY", encrypt(key, "s3cret phrase")));
        try (Connection c =
                login("key_user", null, encrypted.toString(), "s3cret phrase").connect()) {
            assertThat(one(c, "SELECT 2")).isEqualTo("2");
        }
        assertThatThrownBy(() -> login("key_user", null, encrypted.toString(), null).connect())
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "private_key_file "
                                + encrypted
                                + " is encrypted: set private_key_passphrase");
        assertThatThrownBy(() -> login("key_user", null, encrypted.toString(), "wrong").connect())
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith(
                        "cannot read the RSA private key in private_key_file " + encrypted);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN "
                + type
                + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END "
                + type
                + "-----\n";
    }

    /**
     * An encrypted PKCS#8 key (PBEWithSHA1AndDESede, as {@code openssl pkcs8 -topk8 -v1
     * PBE-SHA1-3DES} writes it; Java 17 cannot write PBES2 through this API).
     */
    private static byte[] encrypt(KeyPair key, String phrase) throws Exception {
        String alg = "PBEWithSHA1AndDESede";
        byte[] salt = new byte[8];
        new SecureRandom().nextBytes(salt);
        Cipher cipher = Cipher.getInstance(alg);
        cipher.init(
                Cipher.ENCRYPT_MODE,
                SecretKeyFactory.getInstance(alg)
                        .generateSecret(new PBEKeySpec(phrase.toCharArray())),
                new PBEParameterSpec(salt, 2048));
        AlgorithmParameters params = cipher.getParameters();
        return new EncryptedPrivateKeyInfo(params, cipher.doFinal(key.getPrivate().getEncoded()))
                .getEncoded();
    }

    /**
     * Passes when two attempts at one continuous commit run at once (a TaskManager cut off from the
     * JobManager but not from Snowflake keeps committing while the restarted job repeats the same
     * commit): the second waits for the first's transaction and then finds its marker row, so the
     * rows land once. The first attempt is a session that holds the commit lock with the commit's
     * marker row inserted and not yet committed. Before the commit lock, the second attempt found
     * no marker (the first's was not committed), loaded its ten rows and inserted a second marker
     * row.
     */
    @Test
    void aSecondAttemptAtACommitWaitsForTheFirstAndFindsItsMarker() throws Exception {
        String schema = "skippr_sf_lock_" + Long.toHexString(System.nanoTime());
        SnowflakeLogin login = login(TestSnowflake.USER, TestSnowflake.PASSWORD, null, null);
        SnowflakeDatabase db = new SnowflakeDatabase(login, stage(login, schema));
        SqlSinkSettings settings =
                SqlSinks.prepare(db, "p", "warehouse", schema, false, WriteMode.APPEND);
        Collection<SqlCommittable> committables;
        try (SqlStagingWriter writer =
                new SqlStagingWriter(settings, 0, 1, OptionalLong.empty(), List.of())) {
            writer.write(new SchemaChange(ORDERS), null);
            for (long id = 1; id <= 10; id++) {
                String position = "orders#" + id;
                writer.write(
                        new Row(
                                "orders",
                                ORDERS.version(),
                                Operation.INSERT,
                                new Object[] {id, (int) id * 10},
                                position,
                                SkipprId.of("orders", position),
                                1_700_000_000_000_000L),
                        null);
            }
            committables = writer.prepareCommit();
        }
        SqlCommittable first = committables.iterator().next();
        String markers = settings.qualified(SqlNames.MARKER_TABLE);
        try (Connection firstAttempt = db.connect();
                Statement st = firstAttempt.createStatement()) {
            firstAttempt.setAutoCommit(false);
            SnowflakeDialect.QUOTE.beginCommit(firstAttempt, markers);
            st.execute(
                    "INSERT INTO "
                            + markers
                            + " (\"pipeline\", \"sink\", \"run\", \"checkpoint\", \"subtask\","
                            + " \"parallelism\", \"bounded\", \"write_mode\", \"rows\") VALUES ('p',"
                            + " 'warehouse', "
                            + first.run()
                            + ", "
                            + first.checkpoint()
                            + ", 0, 1, FALSE, 'append', 10)");
            CompletableFuture<List<String>> second;
            try (SqlCommitter committer =
                    new SqlCommitter(settings, SqlCommitter.Scope.CHECKPOINT)) {
                second =
                        CompletableFuture.supplyAsync(
                                () -> {
                                    try {
                                        return RecordedRequest.commit(committer, committables);
                                    } catch (Exception e) {
                                        throw new IllegalStateException(e);
                                    }
                                });
                awaitWaitingFor(SnowflakeDialect.COMMIT_LOCK, second);
                assertThat(second).as("the second attempt, while the first is open").isNotDone();
                firstAttempt.commit();
                assertThat(second.get(60, TimeUnit.SECONDS)).containsExactly("already committed");
            }
        }
        try (Connection c = db.connect()) {
            assertThat(one(c, "SELECT count(*) FROM \"" + schema + "\".\"orders\""))
                    .as("rows the second attempt loaded")
                    .isEqualTo("0");
            assertThat(one(c, "SELECT count(*) FROM " + markers)).isEqualTo("1");
        }
    }

    /** Waits (a minute at most) until a statement naming {@code table} waits for a lock. */
    private static void awaitWaitingFor(String table, CompletableFuture<?> waiter)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        try (Connection pg = snowflake.backing()) {
            while (true) {
                try (Statement st = pg.createStatement();
                        ResultSet rs =
                                st.executeQuery(
                                        "SELECT count(*) FROM pg_stat_activity WHERE"
                                                + " wait_event_type = 'Lock' AND query LIKE '%"
                                                + table
                                                + "%'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            "no statement waits for "
                                    + table
                                    + " ("
                                    + (waiter.isDone()
                                            ? "it ended: "
                                                    + waiter.handle((r, t) -> r + " " + t).get()
                                            : "it runs")
                                    + "); active:\n"
                                    + active(pg));
                }
                java.util.concurrent.locks.LockSupport.parkNanos(100_000_000L);
            }
        }
    }

    private static String active(Connection pg) throws Exception {
        StringBuilder active = new StringBuilder();
        try (Statement st = pg.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT state, wait_event_type, query FROM pg_stat_activity"
                                        + " WHERE state <> 'idle'")) {
            while (rs.next()) {
                active.append(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3))
                        .append('\n');
            }
        }
        return active.toString();
    }

    private static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(Column.of("id", DataType.INT64), Column.of("amount", DataType.INT32)),
                    List.of("id"),
                    "id");

    private static SnowflakeStage stage(SnowflakeLogin login, String schema) {
        return new SnowflakeStage(login, schema, SnowflakeStage.DEFAULT_NAME);
    }

    @Test
    void theStageKeepsFilesAndTheirMetadataAndRemovesThem() throws Exception {
        SnowflakeLogin login = login(TestSnowflake.USER, TestSnowflake.PASSWORD, null, null);
        try (Connection c = login.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS \"stage_s\"");
        }
        SnowflakeStage stage = stage(login, "stage_s");
        String folder = StagedLayout.DEFAULT.folder("stage_s");
        assertThat(stage.list(folder)).as("no stage yet").isEmpty();

        Path part = dir.resolve("local-part.bin");
        Files.write(part, new byte[] {1, 2, 3});
        stage.put(folder + "set_a/part-00000.parquet", part, Map.of());
        Map<String, String> metadata = new LinkedHashMap<>();
        // longer than a file name may be: a set's comment names its pipeline, sink and stream
        metadata.put(StagedLayout.COMMENT, "eyJza2lwcHIiOiJzdGFnaW5nIn0".repeat(30));
        metadata.put(StagedLayout.PARTS, "1");
        stage.put(folder + "set_a.manifest", "{}".getBytes(StandardCharsets.UTF_8), metadata);

        assertThat(stage.list(folder))
                .containsExactly(folder + "set_a.manifest", folder + "set_a/part-00000.parquet");
        assertThat(stage.metadata(folder + "set_a.manifest")).isEqualTo(metadata);
        assertThat(stage.metadata(folder + "set_a/part-00000.parquet")).isEmpty();
        assertThat(stage.metadata(folder + "set_b.manifest")).isNull();

        stage.delete(List.of(folder + "set_a/part-00000.parquet", folder + "set_a.manifest"));
        assertThat(stage.list(folder)).isEmpty();
        assertThat(stage.url("x/y")).isEqualTo("@\"stage_s\".\"_skippr_stage\"/x/y");
    }

    /**
     * The driver closes each PUT's S3 client; had that shut down its Netty event loop, every PUT
     * would wait out Netty's 2-second quiet period. The loop that served the first PUT still runs
     * after the second (before DriverTransferLoop, its threads had ended: each PUT built and shut
     * down a loop of its own).
     */
    @Test
    void consecutivePutsShareTheDriversTransferLoop() throws Exception {
        SnowflakeLogin login = login(TestSnowflake.USER, TestSnowflake.PASSWORD, null, null);
        try (Connection c = login.connect();
                Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS \"loop_s\"");
        }
        SnowflakeStage stage = stage(login, "loop_s");
        String folder = StagedLayout.DEFAULT.folder("loop_s");
        stage.put(folder + "a.bin", new byte[] {1}, Map.of());
        List<Thread> first = transferLoopThreads();
        stage.put(folder + "b.bin", new byte[] {2}, Map.of());

        assertThat(first).as("the driver's event loop threads after a PUT").isNotEmpty();
        assertThat(first)
                .as("the first PUT's loop, after the second PUT")
                .allMatch(Thread::isAlive);
        assertThat(transferLoopThreads()).containsAll(first);
        assertThat(stage.list(folder)).containsExactly(folder + "a.bin", folder + "b.bin");
    }

    private static List<Thread> transferLoopThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("aws-java-sdk-NettyEventLoop") && t.isAlive())
                .toList();
    }

    @Test
    void theCatalogIsReadFromInformationSchemaInTheTypesSkipprWrites() throws Exception {
        SnowflakeDialect d = SnowflakeDialect.QUOTE;
        try (Connection c =
                login(TestSnowflake.USER, TestSnowflake.PASSWORD, null, null).connect()) {
            assertThat(d.schemaExists(c, "Cat Alog")).isFalse();
            try (Statement st = c.createStatement()) {
                st.execute(d.createSchema("Cat Alog"));
                st.execute(d.createSchema("Cat Alog")); // safe to repeat
            }
            assertThat(d.schemaExists(c, "Cat Alog")).isTrue();
            assertThat(d.columns(c, "Cat Alog", "t")).isNull();
            List<DataType> types =
                    List.of(
                            DataType.BOOLEAN,
                            DataType.INT64,
                            DataType.FLOAT64,
                            DataType.decimal(12, 3),
                            DataType.STRING,
                            DataType.UUID,
                            DataType.BYTES,
                            DataType.DATE,
                            DataType.TIME,
                            DataType.TIMESTAMP,
                            DataType.TIMESTAMP_TZ);
            List<String> names =
                    List.of("b", "Big Int", "f", "d", "s", "u", "y", "dt", "tm", "ts", "tz");
            try (Statement st = c.createStatement()) {
                String create =
                        d.createTable(
                                d.qualified("Cat Alog", "t"),
                                names,
                                types.stream().map(d::columnType).toList(),
                                List.of("b"));
                st.execute(create);
                st.execute(create);
            }
            LinkedHashMap<String, String> expected = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) {
                expected.put(names.get(i), d.columnType(types.get(i)));
            }
            assertThat(d.columns(c, "Cat Alog", "t")).isEqualTo(expected);
            assertThat(d.change(d.columnType(DataType.INT64), DataType.INT32))
                    .isEqualTo(io.skippr.sinks.sql.TypeChange.KEEP);
            assertThat(d.change("NUMBER(12,3)", DataType.decimal(20, 3)))
                    .isEqualTo(io.skippr.sinks.sql.TypeChange.widen("NUMBER(20,3)"));
            try (Statement st = c.createStatement()) {
                st.execute(d.alterColumnType(d.qualified("Cat Alog", "t"), "d", "NUMBER(20,3)"));
                st.execute(d.addColumn(d.qualified("Cat Alog", "t"), "new", "VARCHAR"));
                st.execute(d.addColumn(d.qualified("Cat Alog", "t"), "new", "VARCHAR"));
            }
            expected.put("d", "NUMBER(20,3)");
            expected.put("new", "VARCHAR");
            assertThat(d.columns(c, "Cat Alog", "t")).isEqualTo(expected);
        }
    }
}
