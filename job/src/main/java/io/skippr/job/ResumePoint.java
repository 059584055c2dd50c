package io.skippr.job;

import java.util.List;
import java.util.Optional;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.core.fs.Path;

/**
 * Prints where a cluster's continuous job of a pipeline resumes from: the newest complete
 * checkpoint or savepoint in {@code <execution.checkpointing.dir>/<pipeline>/} and {@code
 * <execution.checkpointing.savepoint-dir>/<pipeline>/} of the Flink configuration in {@code
 * $FLINK_CONF_DIR}, on any file system Flink has ({@code s3://} through the plugins in {@code
 * $FLINK_PLUGINS_DIR}). {@code scripts/flink resume} runs it. Exit code 1 when there is none, 2 for
 * a wrong command line.
 */
public final class ResumePoint {
    private ResumePoint() {}

    public static void main(String[] args) {
        if (args.length != 1 || args[0].isBlank()) {
            System.err.println("usage: ResumePoint PIPELINE");
            System.exit(2);
        }
        String pipeline = args[0];
        Configuration conf = GlobalConfiguration.loadConfiguration(System.getenv("FLINK_CONF_DIR"));
        FlinkPlugins.initializeFileSystems(conf, System.getenv());
        List<Path> dirs =
                java.util.stream.Stream.of(
                                CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                                CheckpointingOptions.SAVEPOINT_DIRECTORY)
                        .map(conf::getOptional)
                        .flatMap(Optional::stream)
                        .map(dir -> new Path(FlinkSettings.under(dir, pipeline)))
                        .toList();
        Optional<Path> newest = Checkpoints.newest(dirs);
        if (newest.isEmpty()) {
            System.err.println(
                    "flink resume: pipeline "
                            + pipeline
                            + " has no retained checkpoint or savepoint in "
                            + (dirs.isEmpty()
                                    ? "the configuration's folders (execution.checkpointing.dir"
                                            + " and savepoint-dir are not set)"
                                    : dirs.stream()
                                            .map(Path::toString)
                                            .collect(
                                                    java.util.stream.Collectors.joining(" nor "))));
            System.exit(1);
        }
        System.out.println(newest.get());
    }
}
