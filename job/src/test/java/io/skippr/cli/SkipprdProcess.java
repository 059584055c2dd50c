package io.skippr.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@code skipprd} as a process of its own on the test class path, as a user's shell would:
 * its standard output and error go to {@code <name>.out} and {@code <name>.err} in the folder. The
 * class path comes packed in jars with a class-data archive ({@link ClassDataArchive}), so that
 * each process starts faster.
 */
public final class SkipprdProcess {
    private SkipprdProcess() {}

    /**
     * @param dir the working folder; output files are written there
     * @param name the output files' base name
     * @param env environment variables added to this JVM's
     * @param jvmArgs extra JVM flags, such as {@code -Dskippr.failpoint=before-commit}
     * @param args the skipprd command line
     */
    public static Process start(
            Path dir, String name, Map<String, String> env, List<String> jvmArgs, String... args)
            throws java.io.IOException {
        List<String> command = new ArrayList<>(javaAndOpens());
        command.addAll(jvmArgs);
        command.addAll(ClassDataArchive.jvm());
        command.add(Skipprd.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectOutput(dir.resolve(name + ".out").toFile())
                        .redirectError(dir.resolve(name + ".err").toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    /** The {@code java} executable and this JVM's {@code --add-opens} and {@code --add-exports}. */
    static List<String> javaAndOpens() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
                .forEach(command::add);
        return command;
    }

    /**
     * {@code skipprd sync --pipeline PIPELINE --once} and {@code more} in {@code dir}, with its
     * state in {@code dir/state}, to its end (at most two minutes); output in {@code dir/sync.out}
     * and {@code dir/sync.err}.
     */
    public static Process syncOnce(Path dir, String pipeline, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("sync", "--pipeline", pipeline, "--once"));
        args.addAll(List.of(more));
        Process process =
                start(
                        dir,
                        "sync",
                        java.util.Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString()),
                        List.of(),
                        args.toArray(String[]::new));
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("skipprd sync --once did not end within 120 s");
        }
        return process;
    }

    /**
     * Polls {@code condition} until it holds; fails at once if the process ends first, and after
     * {@code limit} otherwise, with {@code output} (what the process printed) in the message.
     */
    public static void await(
            Process process,
            Duration limit,
            String what,
            Callable<Boolean> condition,
            Callable<String> output)
            throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.call()) {
            if (!process.isAlive()) {
                throw new AssertionError(
                        "skipprd exited ("
                                + process.exitValue()
                                + ") before "
                                + what
                                + ":\n"
                                + output.call());
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError(
                        "not within " + limit.toSeconds() + " s: " + what + "\n" + output.call());
            }
            process.waitFor(100, TimeUnit.MILLISECONDS); // returns at once if skipprd ends
        }
    }

    /**
     * Writes {@code dir/flink-conf/config.yaml}: the bundled configuration with a checkpoint every
     * 500 ms, for {@code SKIPPR_FLINK_CONF_DIR}; returns that folder.
     */
    public static Path fastCheckpoints(Path dir) throws java.io.IOException {
        try (java.io.InputStream in =
                SkipprdProcess.class.getResourceAsStream("/flink-conf/config.yaml")) {
            String conf =
                    new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                            .replace(
                                    "execution.checkpointing.interval: 10 s",
                                    "execution.checkpointing.interval: 500 ms")
                            .replace(
                                    "execution.checkpointing.min-pause: 2 s",
                                    "execution.checkpointing.min-pause: 100 ms");
            if (!conf.contains("interval: 500 ms") || !conf.contains("min-pause: 100 ms")) {
                throw new AssertionError(
                        "flink-conf/config.yaml no longer has the settings this test changes");
            }
            Path folder = dir.resolve("flink-conf");
            java.nio.file.Files.createDirectories(folder);
            java.nio.file.Files.writeString(folder.resolve("config.yaml"), conf);
            return folder;
        }
    }
}
