package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.query.WalQuery;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code skipprd savepoint --pipeline P --stop} from a second shell ends a running continuous
 * {@code skipprd sync} with a savepoint in the pipeline's savepoint folder; a plain {@code skipprd
 * sync} then resumes from that savepoint (the stopped job dropped its own checkpoints, and an older
 * job's would load rows again), and {@code skipprd sync --from-savepoint PATH} carries on from a
 * second one with the checkpoints deleted, so only the savepoint knows what was read. Each row
 * lands once.
 */
class SavepointITCase {
    private static final int ROWS_PER_FILE = 200;

    @TempDir Path dir;

    /** The skipprd processes this test started: none outlives it, whatever failed. */
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopWhatIsLeft() throws InterruptedException {
        for (Process process : started) {
            process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process start(Map<String, String> env, String name, String... args)
            throws java.io.IOException {
        Process process = SkipprdProcess.start(dir, name, env, List.of(), args);
        started.add(process);
        return process;
    }

    @Test
    void aSyncStoppedWithASavepointCarriesOnFromItAndLoadsEachRowOnce() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Files.writeString(
                dir.resolve("skippr.yml"),
                """
                pipelines:
                  p: {data_source: data_sources.in}
                data_sources:
                  in:
                    LocalFile: {path: in/*.csv, format: csv, stream: orders}
                """);
        Path state = dir.resolve("state");
        Map<String, String> env =
                Map.of(
                        "SKIPPR_STATE_DIR", state.toString(),
                        "SKIPPR_FLINK_CONF_DIR", SkipprdProcess.fastCheckpoints(dir).toString());
        CliRun idle = CliRun.run(dir, env, "savepoint", "--pipeline", "p");
        assertThat(idle.exitCode()).isEqualTo(2);
        assertThat(idle.err())
                .isEqualTo(
                        "error: pipeline p is not running: start it with 'skipprd sync --pipeline"
                                + " p' (a savepoint is of a running continuous sync)\n");
        CliRun once =
                CliRun.run(dir, env, "sync", "--pipeline", "p", "--once", "--from-savepoint", "x");
        assertThat(once.exitCode()).isEqualTo(2);
        assertThat(once.err())
                .isEqualTo(
                        "error: --from-savepoint is for continuous runs: a --once run starts from"
                                + " the positions its data sink committed\n");

        csv(in.resolve("a.csv"), 1);
        Process first = start(env, "first", "sync", "--pipeline", "p");
        SkipprdProcess.await(
                first,
                Duration.ofSeconds(120),
                "the first file landed",
                () -> count(state.resolve("p")) == ROWS_PER_FILE,
                () -> Files.readString(dir.resolve("first.err")));
        CliRun savepoint = CliRun.run(dir, env, "savepoint", "--pipeline", "p", "--stop");
        assertThat(savepoint.exitCode()).as(savepoint.err()).isZero();
        String location = savepoint.out().strip();
        assertThat(location)
                .startsWith(
                        state.resolve("p/savepoints")
                                .toUri()
                                .toString()
                                .replaceFirst("^file:///", "file:/"));
        assertThat(savepoint.err())
                .isEqualTo("Savepoint of pipeline p, which has stopped: " + location + "\n");
        assertThat(first.waitFor(60, TimeUnit.SECONDS))
                .as("the sync ends with the savepoint")
                .isTrue();
        assertThat(first.exitValue()).as(Files.readString(dir.resolve("first.err"))).isZero();
        assertThat(state.resolve("p/running.json")).doesNotExist();

        // a plain restart resumes from the savepoint: the stopped job dropped its checkpoints
        csv(in.resolve("b.csv"), ROWS_PER_FILE + 1);
        Process second = start(env, "second", "sync", "--pipeline", "p", "--log");
        SkipprdProcess.await(
                second,
                Duration.ofSeconds(120),
                "the second file landed",
                () -> count(state.resolve("p")) >= 2L * ROWS_PER_FILE,
                () -> Files.readString(dir.resolve("second.err")));
        CliRun again = CliRun.run(dir, env, "savepoint", "--pipeline", "p", "--stop");
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(dir.resolve("second.err")))
                .contains("Resuming pipeline p from savepoint " + location)
                .doesNotContain("starts without its checkpoint");

        // only the savepoint named knows how far the files were read
        deleteTree(state.resolve("p/checkpoints"));
        String newest = again.out().strip();
        csv(in.resolve("c.csv"), 2L * ROWS_PER_FILE + 1);
        Process third =
                start(env, "third", "sync", "--pipeline", "p", "--log", "--from-savepoint", newest);
        try {
            SkipprdProcess.await(
                    third,
                    Duration.ofSeconds(120),
                    "the third file landed",
                    () -> count(state.resolve("p")) >= 3L * ROWS_PER_FILE,
                    () -> Files.readString(dir.resolve("third.err")));
        } finally {
            third.destroy();
            assertThat(third.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(dir.resolve("third.err")))
                .contains("Resuming pipeline p from savepoint " + newest);
        long n = 3L * ROWS_PER_FILE;
        assertThat(
                        WalQuery.run(
                                        state.resolve("p"),
                                        "SELECT count(*), count(DISTINCT id), sum(id) FROM orders")
                                .rows()
                                .get(0))
                .as("rows, distinct ids, sum(id)")
                .containsExactly(
                        String.valueOf(n), String.valueOf(n), String.valueOf(n * (n + 1) / 2));
    }

    private static long count(Path stateDir) {
        try {
            return Long.parseLong(
                    WalQuery.run(stateDir, "SELECT count(*) FROM orders").rows().get(0).get(0));
        } catch (Exception e) {
            return 0; // nothing committed yet
        }
    }

    private static void deleteTree(Path folder) throws java.io.IOException {
        try (var paths = Files.walk(folder)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private static void csv(Path file, long first) throws java.io.IOException {
        List<String> lines = new ArrayList<>(List.of("id,qty,name"));
        for (long id = first; id < first + ROWS_PER_FILE; id++) {
            lines.add(id + "," + (id * 37 % 1000) + ",item " + id);
        }
        Files.write(file, lines);
    }
}
