package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.cli.SkipprdProcess;
import io.skippr.config.Config;
import io.skippr.job.query.WalQuery;
import io.skippr.sinks.s3.TestS3;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The embedded runner keeps a pipeline's checkpoints where the user's Flink configuration says,
 * here on S3 (S3Proxy) through the flink-s3-fs-hadoop plugin the build puts in {@code
 * job/target/plugins}: a continuous run checkpoints to {@code s3://…/checkpoints/p/}, is cancelled,
 * and the next continuous run resumes from the newest checkpoint there and reads a file added
 * meanwhile; then a {@code --once} run moves those checkpoints aside on S3. Each row once (count,
 * distinct ids, sum of ids), nothing in the local state folder's checkpoints.
 */
class EmbeddedCheckpointsOnS3ITCase {
    private static final int ROWS_PER_FILE = 300;
    private static final Path PLUGINS = Path.of("target/plugins").toAbsolutePath();

    @TempDir Path dir;

    @Test
    void aContinuousRunResumesFromItsCheckpointOnS3AndAOnceRunMovesItAside() throws Exception {
        assertThat(PLUGINS.resolve("s3-fs-hadoop"))
                .as("the build's Flink plugins (job/pom.xml copies them at package)")
                .isDirectory();
        String bucket = TestS3.bucket();
        String prefix = "embedded-state-" + java.util.UUID.randomUUID() + "/";
        String s3 = "s3://" + bucket + "/" + prefix;
        Path conf = SkipprdProcess.fastCheckpoints(dir);
        Files.writeString(
                conf.resolve("config.yaml"),
                Files.readString(conf.resolve("config.yaml"))
                        + String.join(
                                "\n",
                                "",
                                "execution.checkpointing.dir: " + s3 + "checkpoints",
                                "execution.checkpointing.savepoint-dir: " + s3 + "savepoints",
                                "s3.endpoint: " + TestS3.env("SKIPPR_TEST_S3_ENDPOINT"),
                                "s3.endpoint.region: " + TestS3.env("SKIPPR_TEST_S3_REGION"),
                                "s3.path.style.access: true",
                                "s3.access-key: " + TestS3.env("SKIPPR_TEST_S3_ACCESS_KEY"),
                                "s3.secret-key: " + TestS3.env("SKIPPR_TEST_S3_SECRET_KEY"),
                                // S3Proxy answers a copy (a rename's first half) without an ETag
                                "s3.change.detection.version.required: false",
                                ""));
        Path in = Files.createDirectories(dir.resolve("in"));
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  p: {data_source: data_sources.in}
                data_sources:
                  in:
                    LocalFile: {path: '%s/*.csv', format: csv, stream: orders}
                """
                        .formatted(in));
        Path state = dir.resolve("state");
        Map<String, String> env =
                Map.of(
                        "SKIPPR_STATE_DIR", state.toString(),
                        "SKIPPR_FLINK_CONF_DIR", conf.toString(),
                        "FLINK_PLUGINS_DIR", PLUGINS.toString());
        Path stateDir = StateDirs.of(dir.resolve("skippr.yml"), "p", env);
        var checkpoints = new org.apache.flink.core.fs.Path(s3 + "checkpoints/p");

        csv(in.resolve("a.csv"), 1);
        continuous(env, stateDir, checkpoints, ROWS_PER_FILE);

        var latest = Checkpoints.latest(checkpoints);
        assertThat(latest).as("the newest checkpoint, found on S3").isPresent();
        assertThat(latest.get().toString()).startsWith(s3 + "checkpoints/p/");

        csv(in.resolve("b.csv"), ROWS_PER_FILE + 1);
        List<String> secondRun = continuous(env, stateDir, checkpoints, 2L * ROWS_PER_FILE);
        assertThat(secondRun)
                .as("the second run restores from S3, so nothing warns of rows loaded again")
                .noneMatch(line -> line.contains("starts without its checkpoint"));

        new Session(Config.load(dir.resolve("skippr.yml")).getPipeline("p"), env).sync(true);
        assertThat(Checkpoints.latest(checkpoints))
                .as("after the --once run, no checkpoint is left to resume from")
                .isEmpty();
        try (S3Client client = TestS3.connection().open()) {
            assertThat(keys(client, bucket, prefix + "checkpoints/p.superseded-"))
                    .as("the superseded checkpoints, moved aside on S3, their metadata first")
                    .anyMatch(k -> k.endsWith("/_metadata.superseded"))
                    .noneMatch(k -> k.endsWith("/_metadata"));
        }
        assertThat(StateDirs.checkpoints(stateDir)).doesNotExist();

        long n = 2L * ROWS_PER_FILE;
        assertThat(rows(stateDir))
                .as("rows, distinct ids, sum(id)")
                .containsExactly(
                        String.valueOf(n), String.valueOf(n), String.valueOf(n * (n + 1) / 2));
    }

    /**
     * Runs pipeline p continuously until its WAL holds {@code rows} rows and a checkpoint taken
     * after them completed, then cancels it; returns what the runner told of trouble.
     */
    private List<String> continuous(
            Map<String, String> env,
            Path stateDir,
            org.apache.flink.core.fs.Path checkpoints,
            long rows)
            throws Exception {
        List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
        var pipeline = Config.load(dir.resolve("skippr.yml")).getPipeline("p");
        try (EmbeddedRunner runner =
                new EmbeddedRunner(new PipelineGraph.Request(pipeline, false, env, stateDir))) {
            runner.onTrouble(told::add);
            runner.start();
            CompletableFuture<Object> run =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return runner.run(c -> {});
                                } catch (Exception e) {
                                    throw new java.util.concurrent.CompletionException(e);
                                }
                            });
            await(() -> run.isDone() || count(stateDir) >= rows, run);
            // a checkpoint after the rows' commit, so the next run resumes past them
            var seen = Checkpoints.latest(checkpoints);
            await(() -> run.isDone() || !Checkpoints.latest(checkpoints).equals(seen), run);
            runner.cancel(java.time.Duration.ofSeconds(30));
            run.get(60, TimeUnit.SECONDS);
        }
        return told;
    }

    private static void await(BooleanSupplier done, CompletableFuture<Object> run)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 120 s");
            }
            try {
                run.get(200, TimeUnit.MILLISECONDS); // returns at once if the run ends
            } catch (java.util.concurrent.TimeoutException e) {
                // still running: look again
            } catch (java.util.concurrent.ExecutionException e) {
                break; // failed: reported below
            }
        }
        if (run.isDone()) {
            run.get(); // a run that ended by itself failed: its error is the test's
            throw new AssertionError("the continuous run ended by itself");
        }
    }

    private static long count(Path stateDir) {
        try {
            return Long.parseLong(
                    WalQuery.run(stateDir, "SELECT count(*) FROM orders").rows().get(0).get(0));
        } catch (Exception e) {
            return 0; // no committed file yet
        }
    }

    private static List<String> rows(Path stateDir) throws Exception {
        return WalQuery.run(stateDir, "SELECT count(*), count(DISTINCT id), sum(id) FROM orders")
                .rows()
                .get(0);
    }

    private static List<String> keys(S3Client client, String bucket, String prefix) {
        return client
                .listObjectsV2Paginator(b -> b.bucket(bucket).prefix(prefix))
                .contents()
                .stream()
                .map(S3Object::key)
                .toList();
    }

    private static void csv(Path file, long first) throws java.io.IOException {
        List<String> lines = new ArrayList<>(List.of("id,qty,name"));
        for (long id = first; id < first + ROWS_PER_FILE; id++) {
            lines.add(id + "," + (id * 37 % 1000) + ",item " + id);
        }
        Files.write(file, lines);
    }
}
