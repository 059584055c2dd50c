package io.skippr.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/** One in-process run of {@code skipprd}: its exit code and what it printed. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun run(Path cwd, Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                Skipprd.run(args, cwd, env, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }

    /**
     * {@code skipprd sync --config CONFIG --pipeline PIPELINE --once} in {@code dir}, with its
     * state in {@code dir/state}.
     */
    static CliRun syncOnce(Path dir, Path config, String pipeline) {
        return run(
                dir,
                Map.of("SKIPPR_STATE_DIR", dir.resolve("state").toString()),
                "sync",
                "--config",
                config.toString(),
                "--pipeline",
                pipeline,
                "--once");
    }

    static CliRun run(Path cwd, String... args) {
        return run(cwd, Map.of(), args);
    }

    public String all() {
        return out + err;
    }
}
