package io.skippr.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.job.TestPostgres;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

/**
 * The Python package ({@code python/}) as a user meets it: installed offline with {@code pip
 * install ./python} into a fresh virtual environment, driving this build's skipprd. The spec's
 * Python examples run verbatim against its starting file and must leave exactly the YAML the spec
 * shows; its run example syncs a real pipeline; the package's own tests (bad input, messages,
 * discovery) pass.
 */
class PythonApiITCase {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path SPEC = ROOT.resolve("python/tests/spec");

    @TempDir static Path shared;
    private static Path python;
    private static Path skipprd;

    @TempDir Path dir;

    @BeforeAll
    static void install() throws Exception {
        Path copy = shared.resolve("src");
        copyTree(ROOT.resolve("python"), copy);
        Path venv = shared.resolve("venv");
        String system = System.getenv().getOrDefault("SKIPPR_TEST_PYTHON", "python3");
        run(shared, Map.of(), 120, system, "-m", "venv", venv.toString());
        python = venv.resolve("bin/python");
        run(
                shared,
                Map.of(),
                300,
                python.toString(),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-index",
                copy.toString());
        skipprd = launcher(shared.resolve("bin/skipprd"));
    }

    /** Each of the spec's three config examples, in page order, writes the YAML the page shows. */
    @Test
    void theSpecsPythonExamplesWriteExactlyTheYamlTheSpecShows() throws Exception {
        Files.copy(SPEC.resolve("skippr.yml"), dir.resolve("skippr.yml"));
        for (String example : List.of("add_destination", "schema_sink", "deadletter_sink")) {
            String out = runExample(example, Map.of());
            Map<String, Object> saved = yaml(dir.resolve("skippr.yml"));
            Map<String, Object> shown = yaml(SPEC.resolve(example + ".yml"));
            for (Map.Entry<String, Object> section : shown.entrySet()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> entries = (Map<String, Object>) section.getValue();
                for (Map.Entry<String, Object> entry : entries.entrySet()) {
                    assertThat(at(saved, section.getKey(), entry.getKey()))
                            .as(example + ": " + section.getKey() + "." + entry.getKey() + out)
                            .isEqualTo(entry.getValue());
                }
            }
        }
        assertThat(Files.readString(dir.resolve("skippr.yml")))
                .as("the starting file's comment is kept")
                .startsWith("# The starting file of the spec's Destinations page");
    }

    /** The spec's run example, verbatim, syncs the pipeline the folder's skippr.yml declares. */
    @Test
    void theSpecsRunExampleSyncsThePipelineOnce() throws Exception {
        try (TestPostgres source = new TestPostgres("skippr_py_app_");
                TestPostgres raw = new TestPostgres("skippr_py_raw_");
                TestPostgres rejects = new TestPostgres("skippr_py_rej_")) {
            source.exec(
                    "CREATE TABLE orders (id bigint PRIMARY KEY, amount numeric(12,2))",
                    "INSERT INTO orders SELECT g, g * 1.25 FROM generate_series(1, 300) g");
            Files.writeString(
                    dir.resolve("skippr.yml"),
                    "pipelines:\n  orders:\n    data_source: data_sources.app_db\n"
                            + "    data_sink: data_sinks.warehouse\n"
                            + "    deadletter_sink: deadletter_sinks.rejects\n"
                            + "data_sources:\n  app_db:\n"
                            + source.sourceYaml("orders", null)
                            + "data_sinks:\n  warehouse:\n"
                            + TestPostgres.sinkYaml(raw.schema)
                            + "deadletter_sinks:\n  rejects:\n"
                            + TestPostgres.sinkYaml(rejects.schema));

            Map<String, String> env =
                    Map.of(
                            "PG_PASSWORD", TestPostgres.env("SKIPPR_TEST_PG_PASSWORD"),
                            "SKIPPR_STATE_DIR", dir.resolve("state").toString());
            runExample("run_one_sync", env);
            // a run without deadletters: list reads the sink, replay has nothing to send
            Path deadletters = dir.resolve("deadletters.py");
            Files.writeString(
                    deadletters,
                    "import skippr\n"
                            + "session = skippr.Session(skippr.Config.discover().get_pipeline('orders'))\n"
                            + "listed = session.deadletters().list(stage='load', since='1d')\n"
                            + "print('listed', listed['pipeline'], listed['selected'], listed['total'])\n"
                            + "print('replay', session.deadletters().replay())\n");
            Map<String, String> all = new java.util.HashMap<>(env);
            all.put("SKIPPR_SKIPPRD", skipprd.toString());
            assertThat(run(dir, all, 300, python.toString(), deadletters.toString()))
                    .contains(
                            "listed orders 0 0\n"
                                    + "replay {'replayed': 0, 'loaded': 0, 'failed_again': 0,"
                                    + " 'not_replayable': 0}\n");

            String sum = "SELECT count(*), md5(string_agg(id || ':' || amount, ',' ORDER BY id))";
            assertThat(raw.one(sum + " FROM orders"))
                    .isEqualTo(source.one(sum + " FROM orders"))
                    .first()
                    .isEqualTo("300");
        }
    }

    /** The package's own tests: bad input raises clear exceptions with the loader's messages. */
    @Test
    void thePackagesOwnTestsPass() throws Exception {
        String out =
                run(
                        dir,
                        Map.of("SKIPPR_SKIPPRD", skipprd.toString()),
                        600,
                        python.toString(),
                        "-m",
                        "unittest",
                        "discover",
                        "-s",
                        shared.resolve("src/tests").toString());
        assertThat(out).contains("\nOK");
    }

    private String runExample(String example, Map<String, String> env) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("SKIPPR_SKIPPRD", skipprd.toString());
        return run(dir, all, 300, python.toString(), SPEC.resolve(example + ".py").toString());
    }

    private static Object at(Map<String, Object> yaml, String section, String entry) {
        Object entries = yaml.get(section);
        return entries instanceof Map<?, ?> map ? map.get(entry) : null;
    }

    private static Map<String, Object> yaml(Path file) throws IOException {
        return new Yaml().load(Files.readString(file));
    }

    /** A skipprd launcher on this test's class path, as the Python package runs it. */
    private static Path launcher(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        List<String> command = new ArrayList<>(SkipprdProcess.javaAndOpens());
        command.add("-Xmx512m");
        command.addAll(ClassDataArchive.jvm());
        command.add(Skipprd.class.getName());
        String quoted =
                command.stream()
                        .map(a -> "'" + a.replace("'", "'\\''") + "'")
                        .collect(Collectors.joining(" "));
        Files.writeString(file, "#!/bin/sh\nexec " + quoted + " \"$@\"\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    /** Runs {@code command} in {@code cwd}; returns its output, failing on a non-zero exit. */
    private static String run(Path cwd, Map<String, String> env, int seconds, String... command)
            throws Exception {
        Path log = Files.createTempFile(cwd, "run-", ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command)
                        .directory(cwd.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process = builder.start();
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(
                    String.join(" ", command) + " did not end in " + seconds + " s");
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(String.join(" ", command) + "\n" + out).isZero();
        return "\n" + out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else if (!p.toString().contains("__pycache__")) {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
