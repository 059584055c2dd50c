package io.skippr.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The class path and JVM flags {@link SkipprdProcess} starts {@code skipprd} with: this test JVM's
 * class path, its folders packed as jars, and a dynamic class-data archive (AppCDS) of the classes
 * a {@code sync --once} loads, made once per test JVM by a training run. A process started with it
 * skips most class loading and verification: an empty run here takes about half the time.
 *
 * <p>The flags only change how fast classes load, never which classes or how code behaves; where
 * the archive cannot be made, processes start without it. The JVM checks the archive against the
 * class path itself and ignores it on any mismatch; {@code -Xlog:cds=off} keeps that quiet so the
 * processes' output is what a user sees.
 */
final class ClassDataArchive {
    private static List<String> command;

    private ClassDataArchive() {}

    /** The JVM flags and class path, {@code -cp} included, for a {@code skipprd} process. */
    static synchronized List<String> jvm() {
        if (command == null) {
            command = prepare();
        }
        return command;
    }

    private static List<String> prepare() {
        List<String> flags = new ArrayList<>();
        // C1 only: the tests' runs are small, and C2 compiling start-up code costs them seconds
        flags.add("-XX:TieredStopAtLevel=1");
        try {
            Path folder = Files.createTempDirectory("skippr-cds-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(folder)));
            String classPath = packed(folder);
            Path archive = folder.resolve("skipprd.jsa");
            if (train(folder, classPath, archive)) {
                flags.add("-XX:SharedArchiveFile=" + archive);
                flags.add("-Xlog:cds=off,cds+dynamic=off");
            }
            flags.add("-cp");
            flags.add(classPath);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            System.err.println("ClassDataArchive: starting skipprd without an archive: " + e);
            flags.removeIf(flag -> !flag.startsWith("-XX:TieredStopAtLevel"));
            flags.add("-cp");
            flags.add(System.getProperty("java.class.path"));
        }
        return flags;
    }

    /** This JVM's class path with each folder replaced by a jar of it (CDS reads only jars). */
    private static String packed(Path folder) throws IOException {
        Files.createDirectories(folder);
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                Path jar = folder.resolve((n++) + "-" + path.getFileName() + ".jar");
                jar(path, jar);
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void jar(Path from, Path to) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(to));
                Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files.sorted()::iterator) {
                String name = from.relativize(file).toString().replace(File.separatorChar, '/');
                if (name.isEmpty()) {
                    continue;
                }
                if (Files.isDirectory(file)) {
                    out.putNextEntry(new JarEntry(name + "/"));
                } else {
                    out.putNextEntry(new JarEntry(name));
                    Files.copy(file, (OutputStream) out);
                }
                out.closeEntry();
            }
        }
    }

    /**
     * Runs {@code skipprd sync --once} over a small CSV file into a folder with {@code
     * -XX:ArchiveClassesAtExit}; true when that made the archive.
     */
    private static boolean train(Path folder, String classPath, Path archive)
            throws IOException, InterruptedException {
        Path run = folder.resolve("training");
        Files.createDirectories(run.resolve("in"));
        StringBuilder csv = new StringBuilder("id,name,amount\n");
        for (int i = 1; i <= 100; i++) {
            csv.append(i).append(",n").append(i).append(',').append(i * 1.5).append('\n');
        }
        Files.writeString(run.resolve("in/a.csv"), csv);
        Files.writeString(
                run.resolve("skippr.yml"),
                """
                pipelines:
                  p: {data_source: data_sources.shop, data_sink: data_sinks.out}
                data_sources:
                  shop:
                    LocalFile: {path: in/*.csv, stream: orders}
                data_sinks:
                  out:
                    LocalFile: {path: out}
                """);
        List<String> training = new ArrayList<>(SkipprdProcess.javaAndOpens());
        training.add("-XX:ArchiveClassesAtExit=" + archive);
        training.addAll(List.of("-cp", classPath, Skipprd.class.getName()));
        training.addAll(List.of("sync", "--pipeline", "p", "--once"));
        ProcessBuilder builder =
                new ProcessBuilder(training)
                        .directory(run.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(run.resolve("training.log").toFile());
        builder.environment().put("SKIPPR_STATE_DIR", run.resolve("state").toString());
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            return false;
        }
        return process.exitValue() == 0 && Files.isRegularFile(archive);
    }

    private static void delete(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .map(Path::toFile)
                    .forEach(File::delete);
        } catch (IOException e) {
            // a temporary folder left behind
        }
    }
}
