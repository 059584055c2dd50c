package io.skippr.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.cli.CliRun;
import io.skippr.job.TestPostgres;
import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.files.FileStore;
import io.skippr.sinks.sftp.TestSftpServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd verify} of the remote file sinks (S3 on S3Proxy, GCS on the fake GCS server,
 * AzureBlob on Azurite, SFTP on Apache MINA SSHD, as the conformance fixtures set them up), after a
 * real {@code sync --once} of a small table of mixed types (a numeric(38,10), texts with commas,
 * quotes and line breaks): equal (exit 0, exact counts); then the committed files rewritten through
 * the store's client with key 10 deleted, 20 duplicated, 30 changed, 40's amount set to NULL and
 * 100000 added (a copy of 50): exactly those keys (exit 1). Parquet on every store, JSONL on S3.
 * SFTP then loses the stream's files (verify names them and counts every row missing); a wrong
 * Azure key and an SFTP port nobody listens on are configuration errors (exit 2) in the stores' own
 * words.
 */
class VerifyFileStoresITCase {
    private static final int ROWS = 300;
    private static final String WIDE = "1234567890123456789012345678.0123456789";

    private static final String EQUAL =
            "stream source rows destination rows missing extra duplicated different not yet synced\n"
                    + "mixed 300 300 0 0 0 0 0\n"
                    + "All 1 streams of pipeline mixed match.\n";

    private static final String BROKEN =
            "stream source rows destination rows missing extra duplicated different not yet synced\n"
                    + "mixed 300 301 1 1 1 2 0\n"
                    + "mixed: missing keys: 10\n"
                    + "mixed: extra keys: 100000\n"
                    + "mixed: duplicated keys: 20\n"
                    + "mixed: different keys: 30, 40\n"
                    + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n";

    @TempDir Path dir;

    private TestPostgres pg;

    @BeforeEach
    void setUp() throws Exception {
        pg = new TestPostgres("skippr_verify_stores_");
        pg.exec(
                "CREATE TABLE mixed (id bigint PRIMARY KEY, amount numeric(12,2), wide"
                        + " numeric(38,10), at timestamptz, day date, note text, tags jsonb,"
                        + " f double precision, flag boolean, u uuid, payload bytea)",
                "INSERT INTO mixed SELECT g, g * 1.5, "
                        + WIDE
                        + " + g, TIMESTAMPTZ '2024-01-01 00:00:00.123456+02' + g * INTERVAL '1"
                        + " minute', DATE '2000-02-29' + g, 'row ' || g, jsonb_build_object('g',"
                        + " g), g / 3.0, g % 2 = 0, md5(g::text)::uuid, decode(md5(g::text),"
                        + " 'hex') FROM generate_series(1, "
                        + ROWS
                        + ") g",
                "UPDATE mixed SET amount = NULL, wide = NULL, at = NULL, day = NULL, note = NULL,"
                        + " tags = NULL, f = NULL, flag = NULL, u = NULL, payload = NULL WHERE id"
                        + " = 1",
                "UPDATE mixed SET note = 'comma, \"quoted\", it''s' WHERE id = 6",
                "UPDATE mixed SET note = E'line one\\nline \"two\",\\r\\nthree' WHERE id = 7",
                "UPDATE mixed SET note = '' WHERE id = 8");
    }

    @AfterEach
    void tearDown() throws Exception {
        pg.close();
    }

    @Test
    void s3Parquet() throws Exception {
        equalThenBroken(new S3Fixture("parquet"));
    }

    @Test
    void s3Jsonl() throws Exception {
        equalThenBroken(new S3Fixture("jsonl"));
    }

    @Test
    void gcsParquet() throws Exception {
        GcsFixture gcs = new GcsFixture("parquet");
        equalThenBroken(gcs);
        gcs.close(); // fails if a request carried credentials
    }

    @Test
    void azureBlobParquet() throws Exception {
        equalThenBroken(new AzureBlobFixture("parquet"));
    }

    /** Then every committed file removed: each is named on stderr, every row missing. */
    @Test
    void sftpParquetThenFilesRemoved() throws Exception {
        SftpFixture sftp = new SftpFixture("parquet");
        equalThenBroken(sftp);
        List<String> keys = files(sftp);
        try (FileStore store = sftp.store(dir)) {
            for (String key : keys) {
                store.delete(key);
            }
        }
        CliRun run = verify(sftp);
        assertThat(run.exitCode()).as(run.all()).isEqualTo(1);
        String where = sftp.store(dir).describe();
        assertThat(run.out().replaceAll(" +", " "))
                .isEqualTo(
                        "stream source rows destination rows missing extra duplicated different"
                                + " not yet synced\n"
                                + "mixed 300 0 300 0 0 0 0\n"
                                + "mixed: destination table mixed/ in "
                                + where
                                + " does not exist\n"
                                + "mixed: missing keys: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 290"
                                + " more\n"
                                + "Pipeline mixed: 1 of 1 streams differ, 0 not verified.\n");
        for (String key : keys) {
            assertThat(run.err())
                    .contains(
                            "verify: mixed: "
                                    + key
                                    + " is listed by the commit log but not in "
                                    + where
                                    + ": its rows are not read");
        }
    }

    @Test
    void aWrongAzureKeyIsAConfigurationError() throws Exception {
        AzureBlobFixture azure = new AzureBlobFixture("parquet");
        config(azure);
        Map<String, String> env = env(azure);
        String wrong = "d3Jvbmcta2V5LW5vdC10aGUtYWNjb3VudHMtb3duLWtleQ==";
        env.put("KIT_AZURE_KEY", wrong);
        CliRun run = run(env, "verify");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(2);
        assertThat(run.err())
                .startsWith(
                        "error: cannot read the data sink data_sinks.files (AzureBlob): cannot"
                                + " read the commit log in "
                                + azure.store(dir).describe()
                                + ": ")
                .contains("refused to list blobs under 'lake/raw/_skippr/commits/' in container '")
                .contains("(HTTP 403 AuthorizationFailure): check account_name and account_key")
                .doesNotContain(wrong);
    }

    @Test
    void anSftpServerNobodyListensOnIsAConfigurationError() throws Exception {
        SftpFixture sftp = new SftpFixture("parquet");
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Files.writeString(
                dir.resolve("skippr.yml"),
                yaml(
                        sftp.sinkYaml(dir)
                                .replace("port: " + TestSftpServer.get().port(), "port: " + port)));
        CliRun run = run(env(sftp), "verify");
        assertThat(run.exitCode()).as(run.all()).isEqualTo(2);
        assertThat(run.err())
                .startsWith(
                        "error: cannot read the data sink data_sinks.files (SFTP): cannot read"
                                + " the commit log in sftp://"
                                + TestSftpServer.PASSWORD_USER
                                + "@127.0.0.1:"
                                + port)
                .endsWith(
                        ": cannot reach SFTP server 127.0.0.1:"
                                + port
                                + ": connection refused (check host, port and that the server is"
                                + " running)\n")
                .doesNotContain(TestSftpServer.PASSWORD);
    }

    /**
     * Sync, verify equal, break the committed files through the store's client, verify names
     * exactly the broken keys.
     */
    private void equalThenBroken(FileStoreFixture fixture) throws Exception {
        config(fixture);
        CliRun sync = run(env(fixture), "sync", "--once");
        assertThat(sync.exitCode()).as(sync.all()).isZero();
        List<String> keys = files(fixture);
        assertThat(keys).isNotEmpty();

        CliRun equal = verify(fixture);
        assertThat(equal.exitCode()).as(equal.all()).isZero();
        assertThat(equal.out().replaceAll(" +", " ")).isEqualTo(EQUAL);
        assertThat(equal.err())
                .contains(
                        "verify: mixed: downloading "
                                + keys.size()
                                + " committed files from "
                                + fixture.store(dir).describe());

        try (FileStore store = fixture.store(dir)) {
            Path work = Files.createTempDirectory(dir, "break-");
            for (String key : keys) {
                Path file = work.resolve(Path.of(key).getFileName());
                store.download(key, file);
                Path broken = work.resolve("broken-" + file.getFileName());
                if (fixture.format.equals("parquet")) {
                    breakParquet(file, broken);
                } else {
                    breakJsonl(file, broken);
                }
                store.put(key, Files.readAllBytes(broken)); // a few KiB
            }
        }
        CliRun broken = verify(fixture);
        assertThat(broken.exitCode()).as(broken.all()).isEqualTo(1);
        assertThat(broken.out().replaceAll(" +", " ")).isEqualTo(BROKEN);
    }

    /** 10 deleted, 20 twice, 30's note changed, 40's amount NULL, 100000 a copy of 50. */
    private static void breakParquet(Path file, Path broken) throws Exception {
        String f = "read_parquet('" + file + "')";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement s = c.createStatement()) {
            s.execute(
                    "COPY (SELECT * REPLACE (CASE WHEN id = 30 THEN 'changed' ELSE note END AS"
                            + " note, CASE WHEN id = 40 THEN NULL ELSE amount END AS amount)"
                            + " FROM "
                            + f
                            + " WHERE id <> 10 UNION ALL SELECT * FROM "
                            + f
                            + " WHERE id = 20 UNION ALL SELECT * REPLACE (100000 AS id) FROM "
                            + f
                            + " WHERE id = 50) TO '"
                            + broken
                            + "' (FORMAT parquet)");
        }
    }

    /** The same delta as {@link #breakParquet}, by editing the JSON lines as text. */
    private static void breakJsonl(Path file, Path broken) throws Exception {
        List<String> records = new ArrayList<>();
        for (String r : Files.readString(file, StandardCharsets.UTF_8).split("\n", -1)) {
            if (r.startsWith("{\"id\":10,")) {
                continue;
            }
            if (r.startsWith("{\"id\":20,")) {
                records.add(r);
            } else if (r.startsWith("{\"id\":30,")) {
                assertThat(r).contains("\"row 30\"");
                r = r.replace("\"row 30\"", "\"changed\"");
            } else if (r.startsWith("{\"id\":40,")) {
                assertThat(r).startsWith("{\"id\":40,\"amount\":60.00,");
                r = r.replace("\"amount\":60.00,", "\"amount\":null,");
            } else if (r.startsWith("{\"id\":50,")) {
                records.add("{\"id\":100000," + r.substring("{\"id\":50,".length()));
            }
            records.add(r);
        }
        Files.writeString(broken, String.join("\n", records), StandardCharsets.UTF_8);
    }

    /** The stream's committed files, as the commit records list them. */
    private List<String> files(FileStoreFixture fixture) throws Exception {
        try (FileStore store = fixture.store(dir)) {
            return new CommitLog(store)
                    .committedKeys().stream().filter(k -> k.startsWith("mixed/")).toList();
        }
    }

    private void config(FileStoreFixture fixture) throws Exception {
        Files.writeString(dir.resolve("skippr.yml"), yaml(fixture.sinkYaml(dir)));
    }

    private String yaml(String sink) {
        return "pipelines:\n"
                + "  mixed:\n    data_source: data_sources.app_db\n"
                + "    data_sink: data_sinks.files\n"
                + "data_sources:\n  app_db:\n"
                + pg.sourceYaml("mixed", null)
                + "data_sinks:\n  files:\n"
                + sink;
    }

    private Map<String, String> env(SinkFixture fixture) {
        Map<String, String> env = new HashMap<>(TestPostgres.passwordEnv());
        env.putAll(fixture.env());
        env.put("SKIPPR_STATE_DIR", dir.resolve("state").toString());
        return env;
    }

    private CliRun verify(SinkFixture fixture) {
        return run(env(fixture), "verify");
    }

    /** {@code skipprd COMMAND --config dir/skippr.yml --pipeline mixed [more]} in this JVM. */
    private CliRun run(Map<String, String> env, String command, String... more) {
        List<String> args = new ArrayList<>(List.of(command));
        args.addAll(List.of("--config", dir.resolve("skippr.yml").toString()));
        args.addAll(List.of("--pipeline", "mixed"));
        args.addAll(List.of(more));
        return CliRun.run(dir, env, args.toArray(String[]::new));
    }
}
