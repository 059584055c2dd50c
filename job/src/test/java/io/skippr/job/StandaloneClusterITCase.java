package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.skippr.sinks.files.CommitLog;
import io.skippr.sinks.s3.TestS3;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The shaded {@code skippr-job.jar} on a real standalone Flink session cluster, started from Maven
 * artifacts by {@code scripts/flink-cluster} and fed by Flink's own {@code CliFrontend} through
 * {@code scripts/flink run}, as a user would with {@code flink run skippr-job.jar}. Runs after
 * {@code package}, which builds the jar and the cluster's class path.
 *
 * <p>One cluster serves every test (a start costs half a minute): its environment holds {@code
 * CLUSTER_PG_PASSWORD}, it checkpoints every second, and its checkpoints and savepoints go to S3
 * (S3Proxy). Each test has a pipeline name of its own, since {@code scripts/flink resume} picks the
 * newest checkpoint of a pipeline, and its own folders; a test's jobs still running when it ends
 * are cancelled. The test that kills the TaskManager runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StandaloneClusterITCase {
    private static final Path ROOT = repositoryRoot();
    private static final Path JOB_JAR = ROOT.resolve("job/target/skippr-job.jar");
    private static final Path CLUSTER_CLASSPATH =
            ROOT.resolve("flink-cluster/target/cluster-classpath.txt");
    private static final int FILES = 3;
    private static final int ROWS_PER_FILE = 400;

    /** The variable the cluster's environment holds, for a Postgres source's password. */
    private static final String CLUSTER_SECRET = "CLUSTER_PG_PASSWORD";

    /** A variable only {@code flink run}'s environment holds, never the cluster's. */
    private static final String CLIENT_ONLY_SECRET = "CLIENT_ONLY_PG_PASSWORD";

    private static final Pattern JOB_STATUS =
            Pattern.compile("\"id\":\"([0-9a-f]{32})\",\"status\":\"([A-Z]+)\"");
    private static final Set<String> TERMINAL = Set.of("FINISHED", "CANCELED", "FAILED");

    @TempDir static Path work;
    private static Path clusterDir;
    private static String restUrl;

    /** {@code s3://bucket/prefix/} of the cluster's checkpoints and savepoints. */
    private static String s3;

    @TempDir Path dir;

    @BeforeAll
    static void startCluster() throws Exception {
        requireBuild();
        clusterDir = work.resolve("cluster");
        s3 = "s3://" + TestS3.bucket() + "/flink-state-" + UUID.randomUUID() + "/";
        long started = System.nanoTime();
        Run start =
                run(
                        work,
                        clusterEnv(work),
                        Duration.ofSeconds(150),
                        script("flink-cluster"),
                        "start",
                        "-D",
                        "execution.checkpointing.interval=1 s",
                        // heartbeats to the killed TaskManager fail (two in a row mark it lost:
                        // heartbeat.rpc-failure-threshold), 2 s apart rather than 10 s
                        "-D",
                        "heartbeat.interval=2 s",
                        "-D",
                        "execution.checkpointing.dir=" + s3 + "checkpoints",
                        "-D",
                        "execution.checkpointing.savepoint-dir=" + s3 + "savepoints",
                        "-D",
                        "s3.endpoint=" + TestS3.env("SKIPPR_TEST_S3_ENDPOINT"),
                        "-D",
                        "s3.endpoint.region=" + TestS3.env("SKIPPR_TEST_S3_REGION"),
                        "-D",
                        "s3.path.style.access=true",
                        "-D",
                        "s3.access-key=" + TestS3.env("SKIPPR_TEST_S3_ACCESS_KEY"),
                        "-D",
                        "s3.secret-key=" + TestS3.env("SKIPPR_TEST_S3_SECRET_KEY"));
        assertThat(start.exit())
                .as("scripts/flink-cluster start failed:%n%s%s", start.output(), logs(clusterDir))
                .isZero();
        Matcher url =
                Pattern.compile("Flink web UI: (http://127\\.0\\.0\\.1:\\d+)")
                        .matcher(start.output());
        assertThat(url.find()).as(start.output()).isTrue();
        restUrl = url.group(1);
        System.out.printf(
                "StandaloneClusterITCase: cluster ready in %d ms%n", millisSince(started));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (clusterDir != null) {
            Run stop =
                    run(
                            work,
                            clusterEnv(work),
                            Duration.ofSeconds(90),
                            script("flink-cluster"),
                            "stop");
            assertThat(stop.exit())
                    .as("scripts/flink-cluster stop failed:%n%s", stop.output())
                    .isZero();
        }
    }

    /** Cancels the test's continuous jobs (and any job a failure left), freeing their slots. */
    @AfterEach
    void cancelJobsLeftRunning() throws Exception {
        if (restUrl == null) {
            return;
        }
        HttpClient http = HttpClient.newHttpClient();
        for (String job : unfinishedJobs(http)) {
            HttpRequest cancel =
                    HttpRequest.newBuilder(URI.create(restUrl + "/jobs/" + job + "?mode=cancel"))
                            .method("PATCH", HttpRequest.BodyPublishers.noBody())
                            .build();
            http.send(cancel, HttpResponse.BodyHandlers.discarding());
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        List<String> left = unfinishedJobs(http);
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            left = unfinishedJobs(http);
        }
        assertThat(left).as("jobs still running after their cancellation").isEmpty();
    }

    @Test
    void shadedJarSyncsCsvFilesToParquetOnAStandaloneCluster() throws Exception {
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        long rows = 0;
        long idSum = 0;
        long qtySum = 0;
        Files.createDirectories(in);
        for (int f = 0; f < FILES; f++) {
            StringBuilder csv = new StringBuilder("id,qty,name\n");
            for (int i = 1; i <= ROWS_PER_FILE; i++) {
                long id = (long) f * ROWS_PER_FILE + i;
                long qty = id * 37 % 1000;
                csv.append(id).append(',').append(qty).append(",item ").append(id).append('\n');
                rows++;
                idSum += id;
                qtySum += qty;
            }
            Files.writeString(in.resolve("part-" + f + ".csv"), csv);
        }
        csvToParquet("parquet", in, out);

        Path clientLog = clusterDir.resolve("log/client.log");
        long logged = Files.size(clientLog);
        long started = System.nanoTime();
        Run job =
                run(
                        env(),
                        Duration.ofSeconds(180),
                        script("flink"),
                        "run",
                        JOB_JAR.toString(),
                        "--pipeline",
                        "parquet",
                        "--once"); // from the folder holding skippr.yml, as the docs show
        assertThat(job.exit())
                .as("scripts/flink run failed:%n%s%s", job.output(), logs(clusterDir))
                .isZero();
        System.out.printf(
                "StandaloneClusterITCase: flink run --once took %d ms%n", millisSince(started));
        assertThat(job.output()).contains("has finished");
        assertThat(Files.readString(clientLog).substring((int) logged))
                .as("the job's main() logs to the client log")
                .contains(SkipprJob.COMPLETE);

        List<String> committed = new CommitLog(out).committedFiles();
        assertThat(committed).as("committed files").isNotEmpty();
        assertThat(committed.stream().map(f -> out.resolve(f).normalize().toString()))
                .as("every Parquet file in the sink folder is committed, and nothing else")
                .containsExactlyInAnyOrderElementsOf(parquetFiles(out));
        String files =
                committed.stream()
                        .map(f -> "'" + out.resolve(f) + "'")
                        .collect(Collectors.joining(",", "[", "]"));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs =
                        db.createStatement()
                                .executeQuery(
                                        "SELECT count(*),"
                                                + " count(DISTINCT _skippr_id), CAST(sum(id) AS BIGINT),"
                                                + " CAST(sum(qty) AS BIGINT) FROM read_parquet("
                                                + files
                                                + ")")) {
            assertThat(rs.next()).isTrue();
            assertThat(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4)))
                    .as("rows, distinct ids, sum(id), sum(qty)")
                    .containsExactly(rows, rows, idSum, qtySum);
        }
    }

    /**
     * A continuous job cancelled (its checkpoints retained) and started again with {@code
     * scripts/flink resume --pipeline resumed}, as the README shows: it restores the pipeline's
     * newest checkpoint, the cancelled job's, so the file read before is not read again and a file
     * added meanwhile is read once. Started without its checkpoint it would read the first file
     * again (and warn so).
     */
    @Test
    void aCancelledContinuousJobIsResumedFromItsNewestCheckpoint() throws Exception {
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        Files.createDirectories(in);
        csv(in.resolve("part-0.csv"), 1, ROWS_PER_FILE);
        csvToParquet("resumed", in, out);
        String job = runDetached("resumed");
        awaitRows(out, ROWS_PER_FILE);

        Run cancel = run(env(), Duration.ofSeconds(60), script("flink"), "cancel", job);
        assertThat(cancel.exit()).as(cancel.output()).isZero();
        csv(in.resolve("part-1.csv"), ROWS_PER_FILE + 1, ROWS_PER_FILE);
        Run resume =
                run(
                        env(),
                        Duration.ofSeconds(120),
                        script("flink"),
                        "resume",
                        "--pipeline",
                        "resumed");
        assertThat(resume.exit()).as("%s%s", resume.output(), logs(clusterDir)).isZero();
        assertThat(resume.output())
                .contains(
                        "flink resume: pipeline resumed from "
                                + s3
                                + "checkpoints/resumed/"
                                + job
                                + "/chk-")
                .doesNotContain("starts without its checkpoint");
        awaitRows(out, 2 * ROWS_PER_FILE);
        long n = 2L * ROWS_PER_FILE;
        assertThat(committedRows(out))
                .as("rows, distinct ids, sum(id)")
                .containsExactly(n, n, n * (n + 1) / 2);
    }

    /**
     * A Postgres source whose password is {@code ${CLUSTER_PG_PASSWORD}}, on a cluster (issue 16,
     * point 3): the job graph carries the variable's name only, so a cluster whose environment
     * lacks the variable fails the job with a message naming the variable and the field (where the
     * source opens its first connection: its split planning on the JobManager), though {@code flink
     * run} had it; the same job with a variable the cluster was started with (as {@code
     * scripts/flink-cluster} passes its own environment on to both JVMs) reads every row. The
     * variable the cluster lacks is {@code CLIENT_ONLY_PG_PASSWORD}, which only {@code flink run}'s
     * environment holds: a cluster of its own started without {@code CLUSTER_PG_PASSWORD} would
     * prove the same at the cost of another cluster start.
     */
    @Test
    void aSourceSecretIsResolvedFromTheClustersEnvironment() throws Exception {
        Path out = dir.resolve("out");
        int n = 500;
        try (TestPostgres pg = new TestPostgres("skippr_cluster_secret_")) {
            pg.exec(
                    "CREATE TABLE \"" + pg.schema + "\".events (id bigint PRIMARY KEY, name text)",
                    "INSERT INTO \""
                            + pg.schema
                            + "\".events SELECT g, 'event ' || g FROM generate_series(1, "
                            + n
                            + ") g");
            String source = pg.sourceYaml("events", null);
            Files.writeString(
                    dir.resolve("skippr.yml"),
                    "pipelines:\n"
                            + "  secret:\n"
                            + "    data_source: data_sources.app_db\n"
                            + "    data_sink: data_sinks.out\n"
                            + "  client_secret:\n"
                            + "    data_source: data_sources.client_db\n"
                            + "    data_sink: data_sinks.client_out\n"
                            + "data_sources:\n  app_db:\n"
                            + source.replace("${PG_PASSWORD}", "${" + CLUSTER_SECRET + "}")
                            + "  client_db:\n"
                            + source.replace("${PG_PASSWORD}", "${" + CLIENT_ONLY_SECRET + "}")
                            + "data_sinks:\n  out:\n    LocalFile: {path: '"
                            + out
                            + "', format: parquet}\n"
                            + "  client_out:\n    LocalFile: {path: '"
                            + dir.resolve("client-out")
                            + "', format: parquet}\n");
            Map<String, String> client = env();
            client.put(CLIENT_ONLY_SECRET, TestPostgres.env("SKIPPR_TEST_PG_PASSWORD"));

            // both at once, 2 slots each of the cluster's 4
            Started failing =
                    start(
                            dir,
                            client,
                            script("flink"),
                            "run",
                            "-Drestart-strategy.type=none",
                            JOB_JAR.toString(),
                            "--pipeline",
                            "client_secret",
                            "--once");
            Run job =
                    run(
                            client,
                            Duration.ofSeconds(180),
                            script("flink"),
                            "run",
                            JOB_JAR.toString(),
                            "--pipeline",
                            "secret",
                            "--once");
            assertThat(job.exit()).as("%s%s", job.output(), logs(clusterDir)).isZero();
            Run failed = failing.finish(Duration.ofSeconds(180));
            assertThat(failed.exit()).as("%s%s", failed.output(), logs(clusterDir)).isNotZero();
            assertThat(failed.output() + Files.readString(clusterDir.resolve("log/jobmanager.log")))
                    .as("the failed run's output and the JobManager's log")
                    .contains(
                            "environment variable "
                                    + CLIENT_ONLY_SECRET
                                    + " is not set in this process (a Flink TaskManager or"
                                    + " JobManager); data_sources.client_db.Postgres.password"
                                    + " needs it");
        }
        assertThat(committedRows(out))
                .as("rows, distinct ids, sum(id)")
                .containsExactly((long) n, (long) n, (long) n * (n + 1) / 2);
    }

    /**
     * Checkpoints and savepoints on S3 (S3Proxy) through the flink-s3-fs-hadoop plugin that {@code
     * scripts/flink-cluster} links into the cluster's plugins folder: a continuous job checkpoints
     * to {@code s3://}, its TaskManager is killed ({@code kill -9}) and a new one started, the job
     * restores from its newest checkpoint on S3 and reads a file added meanwhile, and {@code
     * scripts/flink stop --savepointPath s3://…} ends it with a savepoint there, and {@code
     * scripts/flink resume} runs it again from that savepoint, the newest of its checkpoints and
     * savepoints on S3, to read a third file. 0 rows lost, 0 duplicated (count, distinct ids and
     * sum of ids). Last, as it kills the shared cluster's TaskManager.
     */
    @Test
    @Order(Order.DEFAULT + 1)
    void checkpointsAndASavepointOnS3OutliveAKilledTaskManager() throws Exception {
        Path in = dir.resolve("in");
        Path out = dir.resolve("out");
        Files.createDirectories(in);
        csv(in.resolve("part-0.csv"), 1, ROWS_PER_FILE);
        csvToParquet("killed", in, out);
        URI state = URI.create(s3);
        String bucket = state.getHost();
        String prefix = state.getPath().substring(1);
        try (S3Client client = TestS3.connection().open()) {
            String job = runDetached("killed");
            awaitRows(out, ROWS_PER_FILE);
            String checkpoints = prefix + "checkpoints/killed/" + job + "/chk-";
            awaitKey(client, bucket, checkpoints, "/_metadata");

            Run kill =
                    run(env(), Duration.ofSeconds(60), script("flink-cluster"), "kill-taskmanager");
            assertThat(kill.exit()).as(kill.output()).isZero();
            csv(in.resolve("part-1.csv"), ROWS_PER_FILE + 1, ROWS_PER_FILE);
            Run restarted = run(env(), Duration.ofSeconds(150), script("flink-cluster"), "start");
            assertThat(restarted.exit()).as("%s%s", restarted.output(), logs(clusterDir)).isZero();
            awaitRows(out, 2L * ROWS_PER_FILE);

            Run stop =
                    run(
                            env(),
                            Duration.ofSeconds(120),
                            script("flink"),
                            "stop",
                            "--savepointPath",
                            s3 + "savepoints/killed",
                            job);
            assertThat(stop.exit()).as("%s%s", stop.output(), logs(clusterDir)).isZero();
            assertThat(stop.output())
                    .contains("Savepoint completed. Path: " + s3 + "savepoints/killed/");
            assertThat(keys(client, bucket, prefix + "savepoints/killed/"))
                    .anyMatch(k -> k.endsWith("/_metadata"));
            assertThat(Files.readString(clusterDir.resolve("log/jobmanager.log")))
                    .containsPattern(
                            "Restoring job "
                                    + job
                                    + " from Checkpoint \\d+ .* located at "
                                    + Pattern.quote("s3://" + bucket + "/" + checkpoints));

            // resumed from the newest of its checkpoints and savepoints on S3: the savepoint
            csv(in.resolve("part-2.csv"), 2L * ROWS_PER_FILE + 1, ROWS_PER_FILE);
            Run resume =
                    run(
                            env(),
                            Duration.ofSeconds(120),
                            script("flink"),
                            "resume",
                            "--pipeline",
                            "killed");
            assertThat(resume.exit()).as("%s%s", resume.output(), logs(clusterDir)).isZero();
            assertThat(resume.output())
                    .contains(
                            "flink resume: pipeline killed from "
                                    + s3
                                    + "savepoints/killed/savepoint-");
            awaitRows(out, 3L * ROWS_PER_FILE);
        }
        long n = 3L * ROWS_PER_FILE;
        assertThat(committedRows(out))
                .as("rows, distinct ids, sum(id)")
                .containsExactly(n, n, n * (n + 1) / 2);
    }

    /** Writes the test's skippr.yml: {@code pipeline} reads {@code in/*.csv} into Parquet files. */
    private void csvToParquet(String pipeline, Path in, Path out) throws IOException {
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  %s:
                    data_source: data_sources.in
                    data_sink: data_sinks.out
                data_sources:
                  in:
                    LocalFile: {path: '%s/*.csv', format: csv}
                data_sinks:
                  out:
                    LocalFile: {path: '%s', format: parquet}
                """
                        .formatted(pipeline, in, out));
    }

    /** Runs {@code pipeline} detached with {@code scripts/flink run -d}; returns its job id. */
    private String runDetached(String pipeline) throws Exception {
        Run run =
                run(
                        env(),
                        Duration.ofSeconds(120),
                        script("flink"),
                        "run",
                        "-d",
                        JOB_JAR.toString(),
                        "--pipeline",
                        pipeline);
        assertThat(run.exit()).as("%s%s", run.output(), logs(clusterDir)).isZero();
        Matcher id = Pattern.compile("JobID ([0-9a-f]{32})").matcher(run.output());
        assertThat(id.find()).as(run.output()).isTrue();
        return id.group(1);
    }

    /** The keys under {@code prefix}. */
    private static List<String> keys(S3Client client, String bucket, String prefix) {
        return client
                .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
                .contents()
                .stream()
                .map(S3Object::key)
                .toList();
    }

    /** Waits (two minutes at most) for a key that starts with {@code prefix} and ends so. */
    private static void awaitKey(S3Client client, String bucket, String prefix, String suffix)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (keys(client, bucket, prefix).stream().anyMatch(k -> k.endsWith(suffix))) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        fail("no s3://" + bucket + "/" + prefix + "*" + suffix + logs(clusterDir));
    }

    /** A CSV file of rows {@code first} to {@code first + count - 1}. */
    private static void csv(Path file, long first, int count) throws IOException {
        StringBuilder csv = new StringBuilder("id,qty,name\n");
        for (long id = first; id < first + count; id++) {
            csv.append(id).append(',').append(id * 37 % 1000).append(",item ").append(id);
            csv.append('\n');
        }
        Files.writeString(file, csv);
    }

    /** Waits (two minutes at most) until the sink folder's committed files hold {@code rows}. */
    private static void awaitRows(Path out, long rows) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        List<Long> now = List.of();
        while (System.nanoTime() < deadline) {
            now = committedRows(out);
            if (now.get(0) >= rows) {
                return;
            }
            LockSupport.parkNanos(Duration.ofMillis(500).toNanos());
        }
        fail("the sink holds " + now + " rows, not " + rows + logs(clusterDir));
    }

    /** Rows, distinct {@code _skippr_id}s and sum(id) of the sink folder's committed files. */
    private static List<Long> committedRows(Path out) throws Exception {
        List<String> committed =
                Files.isDirectory(out) ? new CommitLog(out).committedFiles() : List.of();
        if (committed.isEmpty()) {
            return List.of(0L, 0L, 0L);
        }
        String files =
                committed.stream()
                        .map(f -> "'" + out.resolve(f) + "'")
                        .collect(Collectors.joining(",", "[", "]"));
        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                ResultSet rs =
                        db.createStatement()
                                .executeQuery(
                                        "SELECT count(*), count(DISTINCT _skippr_id),"
                                                + " CAST(coalesce(sum(id), 0) AS BIGINT) FROM read_parquet("
                                                + files
                                                + ")")) {
            rs.next();
            return List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
    }

    @Test
    void shadedJarMergesTheConnectorServicesAndLeavesFlinkOut() throws Exception {
        requireBuild();
        try (JarFile jar = new JarFile(JOB_JAR.toFile())) {
            assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class"))
                    .isEqualTo(SkipprJob.class.getName());
            assertThat(services(jar, "io.skippr.core.spi.SourceFactory"))
                    .contains(
                            "io.skippr.sources.localfile.LocalFileSourceFactory",
                            "io.skippr.sources.postgres.PostgresSourceFactory");
            assertThat(services(jar, "io.skippr.core.spi.SinkFactory"))
                    .contains(
                            "io.skippr.sinks.localfile.LocalFileSinkFactory",
                            "io.skippr.sinks.stdout.StdoutSinkFactory");
            assertThat(services(jar, "io.skippr.config.catalog.KindProvider"))
                    .contains(
                            "io.skippr.config.kinds.LocalFileKinds",
                            "io.skippr.config.kinds.PostgresKinds");
            // Every module's own list made it in whole, and every listed class is in the jar.
            for (String[] module :
                    new String[][] {
                        {"sources", "io.skippr.core.spi.SourceFactory"},
                        {"sinks", "io.skippr.core.spi.SinkFactory"},
                        {"config-loader", "io.skippr.config.catalog.KindProvider"}
                    }) {
                Path own =
                        ROOT.resolve(module[0])
                                .resolve("src/main/resources/META-INF/services/" + module[1]);
                Set<String> merged = services(jar, module[1]);
                assertThat(merged).containsAll(serviceLines(Files.readString(own)));
                for (String type : merged) {
                    assertThat(jar.getJarEntry(type.replace('.', '/') + ".class"))
                            .as("class of %s in %s", type, module[1])
                            .isNotNull();
                }
            }

            List<String> names = jar.stream().map(JarEntry::getName).toList();
            assertThat(names)
                    .as("Flink and the logging backend come from the cluster")
                    .noneMatch(
                            n ->
                                    n.startsWith("org/apache/flink/runtime/")
                                            || n.startsWith("org/apache/flink/streaming/api/")
                                            || n.startsWith("org/apache/flink/api/common/")
                                            || n.startsWith("org/apache/logging/log4j/")
                                            || n.startsWith("org/slf4j/"));
            assertThat(names)
                    .as("no signature files of signed dependencies")
                    .noneMatch(n -> n.matches("META-INF/[^/]+\\.(SF|DSA|RSA)"));
            assertThat(names).contains(SkipprJob.class.getName().replace('.', '/') + ".class");
        }
    }

    // ---------------------------------------------------------------------------------------

    private static void requireBuild() {
        for (Path p : List.of(JOB_JAR, CLUSTER_CLASSPATH)) {
            if (!Files.isRegularFile(p)) {
                fail(
                        p
                                + " is missing: run `mvn package` (or `mvn verify`) from "
                                + ROOT
                                + " first; it builds the shaded job jar and the Flink cluster's class path");
            }
        }
    }

    private static Set<String> services(JarFile jar, String service) throws IOException {
        JarEntry entry = jar.getJarEntry("META-INF/services/" + service);
        assertThat(entry).as("META-INF/services/%s in %s", service, JOB_JAR).isNotNull();
        try (InputStream in = jar.getInputStream(entry)) {
            return serviceLines(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static Set<String> serviceLines(String text) {
        return text.lines()
                .map(l -> l.replaceFirst("#.*", "").strip())
                .filter(l -> !l.isEmpty())
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** Parquet files in the sink folder, outside its staging and bookkeeping folders. */
    private static List<String> parquetFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.getFileName().toString().endsWith(".parquet"))
                    .filter(f -> !hiddenPart(root.relativize(f)))
                    .map(f -> f.normalize().toString())
                    .toList();
        }
    }

    private static boolean hiddenPart(Path relative) {
        for (Path part : relative) {
            if (part.toString().startsWith(".") || part.toString().equals("_skippr")) {
                return true;
            }
        }
        return false;
    }

    private record Run(int exit, String output) {}

    /** The cluster's environment: its work dir, its state dir, {@code CLUSTER_PG_PASSWORD}. */
    private static Map<String, String> clusterEnv(Path stateParent) {
        Map<String, String> env = new HashMap<>();
        env.put("SKIPPR_FLINK_CLUSTER_DIR", clusterDir.toString());
        env.put("SKIPPR_STATE_DIR", stateParent.resolve("state").toString());
        env.put(CLUSTER_SECRET, TestPostgres.env("SKIPPR_TEST_PG_PASSWORD"));
        // every test needs this one start: on a loaded machine, wait up to the command's timeout
        env.put("SKIPPR_FLINK_START_TIMEOUT", "140");
        return env;
    }

    /**
     * The environment of the test's commands: the cluster's, with the test's state dir (a
     * TaskManager that {@code flink-cluster start} starts anew gets the cluster's variables).
     */
    private Map<String, String> env() {
        return clusterEnv(dir);
    }

    /** The ids of the cluster's jobs that have not finished, failed or been cancelled. */
    private static List<String> unfinishedJobs(HttpClient http) throws Exception {
        HttpResponse<String> jobs =
                http.send(
                        HttpRequest.newBuilder(URI.create(restUrl + "/jobs")).build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(jobs.statusCode()).as(jobs.body()).isEqualTo(200);
        List<String> unfinished = new ArrayList<>();
        Matcher job = JOB_STATUS.matcher(jobs.body());
        while (job.find()) {
            if (!TERMINAL.contains(job.group(2))) {
                unfinished.add(job.group(1));
            }
        }
        return unfinished;
    }

    /** Runs a command in the test's folder. */
    private Run run(Map<String, String> env, Duration timeout, String... command)
            throws IOException, InterruptedException {
        return run(dir, env, timeout, command);
    }

    /** Runs a command in {@code folder}, its output in a file (the cluster JVMs outlive it). */
    private static Run run(
            Path folder, Map<String, String> env, Duration timeout, String... command)
            throws IOException, InterruptedException {
        return start(folder, env, command).finish(timeout);
    }

    /**
     * Starts a command in {@code folder}, its output in a file; {@link Started#finish} awaits it.
     */
    private static Started start(Path folder, Map<String, String> env, String... command)
            throws IOException {
        Path output = Files.createTempFile(folder, "command-", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(folder.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().remove("SKIPPR_CONFIG");
        builder.environment().remove("SKIPPR_REBUILD");
        builder.environment().putAll(env);
        return new Started(builder.start(), output, command);
    }

    private record Started(Process process, Path output, String... command) {
        /** Waits for the command (killing it after {@code timeout}): its exit code and output. */
        Run finish(Duration timeout) throws IOException, InterruptedException {
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor();
                return new Run(
                        -1,
                        Files.readString(output)
                                + "\n(timed out after "
                                + timeout
                                + ": "
                                + String.join(" ", command)
                                + ")");
            }
            return new Run(process.exitValue(), Files.readString(output));
        }
    }

    /** The ends of the cluster's and the client's logs, for a failure message. */
    private static String logs(Path clusterDir) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String name :
                List.of(
                        "jobmanager.log",
                        "jobmanager.out",
                        "taskmanager.log",
                        "taskmanager.out",
                        "client.log")) {
            Path log = clusterDir.resolve("log").resolve(name);
            if (Files.isRegularFile(log)) {
                List<String> lines = Files.readAllLines(log);
                text.append("\n--- end of ").append(log).append(" ---\n");
                lines.subList(Math.max(0, lines.size() - 60), lines.size())
                        .forEach(l -> text.append(l).append('\n'));
            }
        }
        return text.toString();
    }

    private static String script(String name) {
        return ROOT.resolve("scripts").resolve(name).toString();
    }

    private static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private static Path repositoryRoot() {
        Path p = Path.of("").toAbsolutePath();
        List<Path> tried = new ArrayList<>();
        while (p != null) {
            if (Files.isRegularFile(p.resolve("scripts/flink-cluster"))) {
                return p;
            }
            tried.add(p);
            p = p.getParent();
        }
        throw new IllegalStateException("no scripts/flink-cluster in " + tried);
    }
}
