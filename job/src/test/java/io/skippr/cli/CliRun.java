package io.skippr.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/** One in-process run of {@code skipprd}: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun run(Path cwd, Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                Skipprd.run(args, cwd, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }

    static CliRun run(Path cwd, String... args) {
        return run(cwd, Map.of(), args);
    }

    String all() {
        return out + err;
    }
}
