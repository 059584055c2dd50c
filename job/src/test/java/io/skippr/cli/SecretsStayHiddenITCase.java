package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.StorageSharedKeyCredential;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.skippr.config.Config;
import io.skippr.job.FlinkSettings;
import io.skippr.job.PipelineGraph;
import io.skippr.job.TestPostgres;
import io.skippr.sinks.files.CommitLog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous {@code skipprd sync} whose source and sink log in with a random password (with
 * characters that URL-encoding changes), and whose one bad row becomes a deadletter: while it runs,
 * neither what its Flink web UI serves (job configuration, plan, exceptions, the JobManager's
 * configuration and environment) nor Flink's temporary folders (the MiniCluster's blobStorage, the
 * web upload folder, the I/O and task manager tmp folders, all under the java.io.tmpdir the test
 * gives it) hold the password; after it stops, neither does its output, its log, its state folder
 * (checkpoints included), the deadletter files or skippr.yml. "Hold" means in any form {@link
 * SecretScan} knows: literal, URL-encoded, hex or Base64 at any alignment. The state folder is the
 * owner's alone. The job graph skipprd submits (which {@code flink run} ships to a remote cluster,
 * and Flink may offload to the blob store) is scanned too, for a Postgres sink and for an Azure
 * Blob sink with an account key: it holds no secret in any form, only the {@code ${VAR}}
 * references, which each TaskManager (and, for the Postgres source's split planning, the
 * JobManager) resolves from its own environment when it opens a connection (issue 16, point 3).
 */
class SecretsStayHiddenITCase {
    private static final Pattern UI =
            Pattern.compile("Flink web UI: (http://127\\.0\\.0\\.1:\\d+)");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir Path dir;

    private TestLogin login;

    @BeforeEach
    void setUp() throws SQLException {
        login = new TestLogin("skippr_secret_", "/+ &=");
        login.pg.exec(
                "CREATE TABLE events (id int PRIMARY KEY, doc json NOT NULL)",
                "INSERT INTO events SELECT g, json_build_object('n', g) FROM generate_series(1, 50) g",
                // json keeps the escape as written; the sink's jsonb cannot hold it: a deadletter
                "INSERT INTO events VALUES (51, '{\"bad\": \"\\u0000\"}')");
    }

    @AfterEach
    void tearDown() throws SQLException {
        login.close();
    }

    private String connection() {
        return login.yaml("      sslmode: disable\n");
    }

    private Path config() throws IOException {
        return config(
                "  warehouse:\n    Postgres:\n"
                        + connection()
                        + "      schema: "
                        + login.pg.schema
                        + "_out\n");
    }

    /**
     * A pipeline reading the events table into {@code data_sinks.warehouse}, held by {@code sink}.
     */
    private Path config(String sink) throws IOException {
        Path config = dir.resolve("skippr.yml");
        Files.writeString(
                config,
                "pipelines:\n  events:\n    data_source: data_sources.app_db\n"
                        + "    data_sink: data_sinks.warehouse\n"
                        + "    deadletter_sink: deadletter_sinks.rejects\n"
                        + "data_sources:\n  app_db:\n    Postgres:\n"
                        + connection()
                        + "      schema: "
                        + login.pg.schema
                        + "\n      tables: [events]\n"
                        + "data_sinks:\n"
                        + sink
                        + "deadletter_sinks:\n  rejects:\n    LocalFile:\n"
                        + "      path: rejects\n      format: jsonl\n");
        return config;
    }

    /**
     * The job graph skipprd submits, built as it builds it (the sink prepared, the source planned)
     * and serialized as Flink ships it to the JobManager (and, when a task's share exceeds {@code
     * blob.offload.minsize}, offloads it to the blob store): the Java-serialized job graph.
     */
    private byte[] serializedJobGraph(Path config, Map<String, String> variables) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(variables);
        Path state = dir.resolve("state");
        StreamExecutionEnvironment flink =
                new StreamExecutionEnvironment(FlinkSettings.forPipeline(state, env));
        PipelineGraph.build(
                flink,
                new PipelineGraph.Request(
                        Config.load(config).getPipeline("events"), false, env, state));
        JobGraph graph = flink.getStreamGraph().getJobGraph();
        assertThat(graph.getVertices()).isNotEmpty();
        return InstantiationUtil.serializeObject(graph);
    }

    /**
     * Issue 16, point 3: the Postgres source's and sink's connection records carry the password as
     * a {@code Secret}, whose serialized form is the reference {@code ${LOGIN_PASSWORD}}, the field
     * that holds it and a handle only this JVM can look up; a TaskManager resolves the reference
     * from its own environment. Before, both records held the password in clear.
     */
    @Test
    void theJobGraphHoldsThePasswordInNoForm() throws Exception {
        byte[] serialized = serializedJobGraph(config(), Map.of("LOGIN_PASSWORD", login.password));
        SecretScan scan = new SecretScan(login.password);
        assertThat(scan.find(serialized))
                .as(
                        "the password's forms in the serialized job graph (literal copies"
                                + " after: %s)",
                        scan.contexts(serialized, login.password, 200))
                .isEmpty();
        assertThat(new String(serialized, StandardCharsets.ISO_8859_1))
                .as("the graph carries the references, and the fields that hold them")
                .contains("${LOGIN_PASSWORD}")
                .contains("data_sources.app_db.Postgres.password")
                .contains("data_sinks.warehouse.Postgres.password");
    }

    /**
     * The same for a sink whose secret is a storage account key: an Azure Blob data sink (on
     * Azurite) whose {@code account_key} is {@code ${AZURE_KEY}}, beside the Postgres source.
     */
    @Test
    void theJobGraphHoldsNoStorageAccountKey() throws Exception {
        String key = TestPostgres.env("SKIPPR_TEST_AZURE_KEY");
        String container = login.pg.schema.replace('_', '-');
        BlobContainerClient client =
                new BlobServiceClientBuilder()
                        .endpoint(TestPostgres.env("SKIPPR_TEST_AZURE_ENDPOINT"))
                        .credential(
                                new StorageSharedKeyCredential(
                                        TestPostgres.env("SKIPPR_TEST_AZURE_ACCOUNT"), key))
                        .buildClient()
                        .getBlobContainerClient(container);
        client.create();
        try {
            Path config =
                    config(
                            "  warehouse:\n    AzureBlob:\n      account_name: "
                                    + TestPostgres.env("SKIPPR_TEST_AZURE_ACCOUNT")
                                    + "\n      account_key: ${AZURE_KEY}\n      container: "
                                    + container
                                    + "\n      endpoint: "
                                    + TestPostgres.env("SKIPPR_TEST_AZURE_ENDPOINT")
                                    + "\n      format: jsonl\n");
            byte[] serialized =
                    serializedJobGraph(
                            config, Map.of("LOGIN_PASSWORD", login.password, "AZURE_KEY", key));
            assertThat(new SecretScan(key).find(serialized))
                    .as("the account key's forms in the serialized job graph")
                    .isEmpty();
            assertThat(new SecretScan(login.password).find(serialized))
                    .as("the password's forms in the serialized job graph")
                    .isEmpty();
            assertThat(new String(serialized, StandardCharsets.ISO_8859_1))
                    .contains("${AZURE_KEY}")
                    .contains("data_sinks.warehouse.AzureBlob.account_key");
        } finally {
            client.delete();
        }
    }

    @Test
    void noResolvedPasswordInTheUiOutputLogStateDeadlettersOrConfig() throws Exception {
        Path config = config();
        Path state = dir.resolve("state");
        // Flink's temporary folders (io.tmp.dirs, blob.storage.directory, web.tmpdir and its
        // web.upload.dir) default to java.io.tmpdir: here, a folder the test scans
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        SecretScan scan = new SecretScan(login.password);
        Process sync =
                SkipprdProcess.start(
                        dir,
                        "sync",
                        Map.of(
                                "LOGIN_PASSWORD",
                                login.password,
                                "SKIPPR_STATE_DIR",
                                state.toString()),
                        List.of("-Djava.io.tmpdir=" + tmp),
                        "sync",
                        "--config",
                        config.toString(),
                        "--pipeline",
                        "events",
                        "--log");
        List<String> served = new ArrayList<>();
        try {
            String ui = awaitUi(sync);
            awaitLanded(sync);
            for (String path :
                    List.of("/jobmanager/config", "/jobmanager/environment", "/jobs/overview")) {
                served.add(get(ui + path));
            }
            for (JsonNode job : JSON.readTree(get(ui + "/jobs/overview")).path("jobs")) {
                String id = job.path("jid").asText();
                for (String path : List.of("", "/config", "/exceptions", "/plan")) {
                    served.add(get(ui + "/jobs/" + id + path));
                }
            }
            scanFlinkFoldersWhileRunning(tmp, scan);
        } finally {
            sync.destroy();
            assertThat(sync.waitFor(60, TimeUnit.SECONDS)).as("skipprd stops on SIGTERM").isTrue();
        }

        assertThat(served).hasSizeGreaterThanOrEqualTo(7);
        assertThat(String.join("\n", served))
                .as("what the Flink web UI serves")
                .contains("events")
                .doesNotContain(login.password);
        assertThat(scan.find(String.join("\n", served).getBytes(StandardCharsets.UTF_8)))
                .as("encoded forms of the password in what the Flink web UI serves")
                .isEmpty();
        assertThat(new CommitLog(dir.resolve("rejects")).committedKeys())
                .as("the bad row became a committed deadletter")
                .isNotEmpty();
        List<Path> files = new ArrayList<>();
        assertThat(scan.findIn(List.of(dir), files))
                .as("files holding the password, literal or encoded")
                .isEmpty();
        List<Path> scanned = files.stream().map(dir::relativize).toList();
        assertThat(scanned)
                .as("output, log, checkpoints, deadletters and skippr.yml were all scanned")
                .anyMatch(p -> p.toString().equals("sync.err"))
                .anyMatch(p -> p.startsWith("state") && p.toString().endsWith("skipprd.log"))
                .anyMatch(p -> p.toString().contains("checkpoints"))
                .anyMatch(p -> p.startsWith("rejects") && p.toString().endsWith(".jsonl"))
                .contains(Path.of("skippr.yml"));
        for (Path folder : List.of(state, state.resolve("events"))) {
            assertThat(Files.getPosixFilePermissions(folder))
                    .as("%s is its owner's alone", folder)
                    .extracting(Object::toString)
                    .containsExactlyInAnyOrder("OWNER_READ", "OWNER_WRITE", "OWNER_EXECUTE");
        }
    }

    /**
     * Scans Flink's temporary folders while the job runs (Flink deletes them when it stops): its
     * blob store, where the job's blobs and offloaded deployment data land, its web upload folder
     * and its I/O and state working folders. Then plants a mutant, the password's Base64 in a blob
     * of the live blob store, and shows the same scan turns red on it.
     */
    private void scanFlinkFoldersWhileRunning(Path tmp, SecretScan scan) throws IOException {
        List<Path> folders;
        try (Stream<Path> walk = Files.walk(tmp)) {
            folders = walk.filter(Files::isDirectory).map(tmp::relativize).sorted().toList();
        }
        // the MiniCluster's working folder holds each process's blobStorage (and the task
        // manager's tmp and localState); the web upload folder sits beside it
        assertThat(folders)
                .as("Flink's folders under java.io.tmpdir")
                .anyMatch(f -> f.getFileName().toString().equals("blobStorage"))
                .anyMatch(f -> f.toString().equals("flink-web-upload"))
                .anyMatch(f -> f.getFileName().toString().startsWith("flink-io-"));
        List<Path> scanned = new ArrayList<>();
        assertThat(scan.findIn(List.of(tmp), scanned))
                .as("files in Flink's temporary folders %s holding the password", folders)
                .isEmpty();

        Path blobStore =
                tmp.resolve(
                        folders.stream()
                                .filter(f -> f.getFileName().toString().equals("blobStorage"))
                                .findFirst()
                                .orElseThrow());
        Path planted = blobStore.resolve("blob_p-mutant");
        Files.writeString(
                planted,
                "\0\0"
                        + Base64.getEncoder()
                                .encodeToString(
                                        ("login:" + login.password)
                                                .getBytes(StandardCharsets.UTF_8)));
        try {
            assertThat(scan.findIn(List.of(tmp), new ArrayList<>()))
                    .as("the mutant: the password's Base64 planted in the blob store")
                    .containsExactly(planted + ": Base64");
        } finally {
            Files.delete(planted);
        }
    }

    private String awaitUi(Process sync) throws Exception {
        Path err = dir.resolve("sync.err");
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(deadline)) {
            assertThat(sync.isAlive()).as("skipprd is running: %s", read(err)).isTrue();
            Matcher m = UI.matcher(read(err));
            if (m.find()) {
                return m.group(1);
            }
            sync.waitFor(100, TimeUnit.MILLISECONDS); // returns at once if skipprd died
        }
        throw new AssertionError("skipprd printed no web UI address: " + read(err));
    }

    /** Waits until the 50 good rows are in the sink and the deadletter is committed. */
    private void awaitLanded(Process sync) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        long rows = -1;
        while (Instant.now().isBefore(deadline)) {
            rows = count();
            if (rows == 50 && !new CommitLog(dir.resolve("rejects")).committedKeys().isEmpty()) {
                return;
            }
            assertThat(sync.waitFor(200, TimeUnit.MILLISECONDS))
                    .as("skipprd exited early: %s", read(dir.resolve("sync.err")))
                    .isFalse();
        }
        throw new AssertionError("after 3 minutes the sink holds " + rows + " of 50 rows");
    }

    private long count() throws SQLException {
        try (Connection c = login.pg.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM information_schema.tables WHERE"
                                        + " table_schema = '"
                                        + login.pg.schema
                                        + "_out' AND table_name = 'events'")) {
            rs.next();
            if (rs.getLong(1) == 0) {
                return 0;
            }
        }
        try (Connection c = login.pg.connect();
                Statement st = c.createStatement();
                ResultSet rs =
                        st.executeQuery(
                                "SELECT count(*) FROM \"" + login.pg.schema + "_out\".events")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String get(String url) throws IOException, InterruptedException {
        HttpResponse<String> response =
                HTTP.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s", url).isEqualTo(200);
        return response.body();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file) : "";
    }
}
