package io.skippr.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts {@code skipprd} as a process of its own on the test class path, as a user's shell would:
 * its standard output and error go to {@code <name>.out} and {@code <name>.err} in the folder.
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
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
                .forEach(command::add);
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
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
}
