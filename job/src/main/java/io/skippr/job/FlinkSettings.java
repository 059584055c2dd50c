package io.skippr.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.yaml.snakeyaml.Yaml;

/**
 * The Flink configuration Skippr runs with: {@code flink-conf/config.yaml} (bundled; a copy in
 * {@code $SKIPPR_FLINK_CONF_DIR} wins), with the pipeline's checkpoint and savepoint folders: its
 * own folder under the configuration's {@code execution.checkpointing.dir} and {@code
 * savepoint-dir} when they are set (as a cluster keeps them: {@code <dir>/<pipeline>}), else in its
 * state folder.
 */
public final class FlinkSettings {
    public static final String ENV_VAR = "SKIPPR_FLINK_CONF_DIR";
    static final String UI_ADDRESS = "SKIPPR_UI_ADDRESS";
    static final String UI_PORT = "SKIPPR_UI_PORT";
    private static final String LOOPBACK = "127.0.0.1";

    private FlinkSettings() {}

    /** The configuration of the pipeline whose state folder is {@code stateDir/<pipeline>}. */
    public static Configuration forPipeline(Path stateDir, Map<String, String> env) {
        Configuration conf = Configuration.fromMap(flat(load(env)));
        String pipeline = stateDir.getFileName().toString();
        conf.set(
                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                conf.getOptional(CheckpointingOptions.CHECKPOINTS_DIRECTORY)
                        .map(dir -> under(dir, pipeline))
                        .orElse(stateDir.resolve("checkpoints").toUri().toString()));
        conf.set(
                CheckpointingOptions.SAVEPOINT_DIRECTORY,
                conf.getOptional(CheckpointingOptions.SAVEPOINT_DIRECTORY)
                        .map(dir -> under(dir, pipeline))
                        .orElse(stateDir.resolve("savepoints").toUri().toString()));
        return conf;
    }

    /**
     * How a {@code --once} run recovers from a failed task, over what the user's Flink
     * configuration says: Flink's region failover, which runs again only the failed task and what
     * feeds it (the file destinations' recovery needs it: a whole job run again can load their rows
     * twice, docs/exactly-once.md), and two retries one second apart, so that a run that keeps
     * failing ends with its error instead of retrying forever.
     */
    public static void boundedRecovery(Configuration conf) {
        conf.setString("jobmanager.execution.failover-strategy", "region");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "2");
        conf.setString("restart-strategy.fixed-delay.delay", "1 s");
    }

    /** The folder of the pipeline's checkpoints, as {@link #forPipeline} set it. */
    public static org.apache.flink.core.fs.Path checkpoints(Configuration conf) {
        return new org.apache.flink.core.fs.Path(
                conf.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY));
    }

    /** The folder of the pipeline's savepoints, as {@link #forPipeline} set it. */
    public static org.apache.flink.core.fs.Path savepoints(Configuration conf) {
        return new org.apache.flink.core.fs.Path(
                conf.get(CheckpointingOptions.SAVEPOINT_DIRECTORY));
    }

    /**
     * Where a continuous run may resume from, the newest first found: the pipeline's checkpoint and
     * savepoint folders (a run stopped with a savepoint drops its own checkpoints, and older jobs'
     * checkpoints remain), and its state folder's checkpoints when the Flink configuration names
     * other folders (where they were before it did).
     */
    public static java.util.List<org.apache.flink.core.fs.Path> restorable(
            Configuration conf, Path stateDir) {
        java.util.List<org.apache.flink.core.fs.Path> dirs =
                new java.util.ArrayList<>(java.util.List.of(checkpoints(conf), savepoints(conf)));
        var own = new org.apache.flink.core.fs.Path(StateDirs.checkpoints(stateDir).toUri());
        if (!dirs.contains(own)) {
            dirs.add(own);
        }
        return dirs;
    }

    /**
     * {@code dir/pipeline}: where a pipeline keeps its checkpoints or savepoints in a shared
     * folder.
     */
    static String under(String dir, String pipeline) {
        return dir.replaceAll("/+$", "") + "/" + pipeline;
    }

    /**
     * Where the embedded runner's web UI listens: {@code $SKIPPR_UI_ADDRESS}, else the Flink
     * configuration's {@code rest.bind-address}, else 127.0.0.1; on {@code $SKIPPR_UI_PORT}, else
     * its {@code rest.port}, else a free port. Clients reach it on 127.0.0.1 unless the address is
     * another one of this host's.
     */
    static void webUi(Configuration conf, Map<String, String> env) {
        String bind = env.getOrDefault(UI_ADDRESS, conf.getString("rest.bind-address", LOOPBACK));
        conf.setString("rest.bind-address", bind);
        conf.setString(
                "rest.address", bind.equals("0.0.0.0") || bind.equals("::") ? LOOPBACK : bind);
        conf.setString("rest.port", env.getOrDefault(UI_PORT, conf.getString("rest.port", "0")));
    }

    private static Map<String, Object> load(Map<String, String> env) {
        String dir = env.get(ENV_VAR);
        try (InputStream in =
                dir != null
                        ? Files.newInputStream(Path.of(dir, "config.yaml"))
                        : FlinkSettings.class.getResourceAsStream("/flink-conf/config.yaml")) {
            if (in == null) {
                throw new IllegalStateException("flink-conf/config.yaml is missing from the build");
            }
            Map<String, Object> yaml = new Yaml().load(in);
            return yaml == null ? Map.of() : yaml;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the Flink configuration: " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> flat(Map<String, Object> yaml) {
        Map<String, String> out = new HashMap<>();
        yaml.forEach(
                (key, value) -> {
                    if (value instanceof Map<?, ?> nested) {
                        flat((Map<String, Object>) nested)
                                .forEach((k, v) -> out.put(key + "." + k, v));
                    } else if (value != null) {
                        out.put(key, String.valueOf(value));
                    }
                });
        return out;
    }
}
