package io.skippr.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginManager;

/**
 * Flink's plugins for the embedded runner: the file systems in {@code $FLINK_PLUGINS_DIR} (a folder
 * per plugin, as a Flink distribution's {@code plugins/}; {@code scripts/skipprd} points it at the
 * ones built next to {@code skippr-job.jar}), each in a class loader of its own, so that {@code
 * s3://} checkpoints work through {@code flink-s3-fs-hadoop} without its Hadoop meeting ours. A
 * MiniCluster does not load plugins itself, as a cluster's entry point does.
 */
final class FlinkPlugins {
    private FlinkPlugins() {}

    /**
     * Sets up Flink's file systems with {@code conf} (its {@code s3.*} keys, for instance) and the
     * plugins of {@code env}'s {@code FLINK_PLUGINS_DIR}, when that folder exists.
     */
    static void initializeFileSystems(Configuration conf, Map<String, String> env) {
        String dir = env.get(ConfigConstants.ENV_FLINK_PLUGINS_DIR);
        PluginManager plugins = null;
        if (dir != null && Files.isDirectory(Path.of(dir))) {
            try {
                plugins =
                        new DefaultPluginManager(
                                new DirectoryBasedPluginFinder(Path.of(dir)).findPlugins(),
                                CoreOptions.getPluginParentFirstLoaderPatterns(conf));
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot load the Flink plugins in " + dir + ": " + e.getMessage(), e);
            }
        }
        FileSystem.initialize(conf, plugins);
    }
}
