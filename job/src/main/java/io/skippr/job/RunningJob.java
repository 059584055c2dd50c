package io.skippr.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The job a {@code skipprd sync} of a pipeline runs now, as {@code <state dir>/running.json} names
 * it: the embedded Flink's REST address and the job's id, so that {@code skipprd savepoint} from
 * another shell can reach it. Written once the job is submitted, removed when it ends.
 *
 * @param rest the embedded Flink's REST address (its web UI), such as {@code http://127.0.0.1:8081}
 * @param job the job's id
 * @param pid the process that runs it
 * @param started when that process started (a pid can be reused), in milliseconds since the epoch
 */
public record RunningJob(String rest, String job, long pid, long started) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String FILE = "running.json";

    /** The job {@code job} of this process, whose Flink answers at {@code rest}. */
    static RunningJob of(String rest, String job) {
        ProcessHandle self = ProcessHandle.current();
        return new RunningJob(rest, job, self.pid(), startOf(self));
    }

    private static long startOf(ProcessHandle process) {
        return process.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(0L);
    }

    /** Records that the pipeline whose state folder is {@code stateDir} runs this job now. */
    void write(Path stateDir) {
        Path file = stateDir.resolve(FILE);
        Path temporary = stateDir.resolve(FILE + "." + pid + ".tmp");
        try {
            JSON.writeValue(
                    temporary.toFile(),
                    Map.of("rest", rest, "job", job, "pid", pid, "started", started));
            Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Forgets the running job of {@code stateDir}'s pipeline, if it is this one. */
    void remove(Path stateDir) {
        try {
            if (read(stateDir).filter(this::equals).isPresent()) {
                Files.deleteIfExists(stateDir.resolve(FILE));
            }
        } catch (IOException | RuntimeException e) {
            // a stale file names a process that is gone: read() ignores it
        }
    }

    /**
     * The job a live process runs for {@code stateDir}'s pipeline; empty when none does (no file,
     * or its process is gone).
     */
    public static Optional<RunningJob> read(Path stateDir) {
        try {
            JsonNode node = JSON.readTree(Files.readString(stateDir.resolve(FILE)));
            RunningJob running =
                    new RunningJob(
                            node.path("rest").asText(),
                            node.path("job").asText(),
                            node.path("pid").asLong(),
                            node.path("started").asLong());
            boolean alive =
                    ProcessHandle.of(running.pid())
                            .filter(ProcessHandle::isAlive)
                            // another process reads the start time less exactly than its own
                            .filter(p -> Math.abs(startOf(p) - running.started()) < 2_000)
                            .isPresent();
            return alive ? Optional.of(running) : Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read " + stateDir.resolve(FILE) + ": " + e.getMessage(), e);
        }
    }
}
