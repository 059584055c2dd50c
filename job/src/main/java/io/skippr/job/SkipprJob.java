package io.skippr.job;

import io.skippr.config.Config;
import io.skippr.config.ConfigDiscovery;
import io.skippr.config.ConfigException;
import io.skippr.config.ConfiguredPipeline;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code flink run skippr-job.jar --pipeline orders [--once] [--config FILE]} entry point:
 * builds the pipeline's job graph on the cluster's environment and runs it.
 */
public final class SkipprJob {
    private static final Logger LOG = LoggerFactory.getLogger(SkipprJob.class);
    static final String COMPLETE = "Pipeline sync complete";

    private SkipprJob() {}

    public static void main(String[] args) throws Exception {
        Arguments arguments = Arguments.parse(args);
        Map<String, String> env = System.getenv();
        Path file = ConfigDiscovery.require(arguments.config, env, Path.of("").toAbsolutePath());
        ConfiguredPipeline pipeline = Config.load(file).getPipeline(arguments.pipeline);
        Path stateDir = StateDirs.of(file, arguments.pipeline, env);
        StreamExecutionEnvironment flink = StreamExecutionEnvironment.getExecutionEnvironment();
        if (!arguments.once) {
            checkpointsOf(flink, arguments.pipeline);
        }
        PipelineGraph.Built built =
                PipelineGraph.build(
                        flink, new PipelineGraph.Request(pipeline, arguments.once, env, stateDir));
        built.warnings()
                .forEach(
                        warning -> {
                            LOG.warn(warning);
                            System.err.println("warning: " + warning);
                        });
        if (!arguments.once
                && !flink.getConfiguration()
                        .getOptional(
                                org.apache.flink.configuration.StateRecoveryOptions.SAVEPOINT_PATH)
                        .isPresent()) {
            built.unrestoredWarning(arguments.pipeline, "flink run was given no -s")
                    .ifPresent(
                            warning -> {
                                LOG.warn(warning);
                                System.err.println("warning: " + warning);
                            });
        }
        JobExecutionResult result =
                flink.execute("skippr " + arguments.pipeline + (arguments.once ? " --once" : ""));
        if (arguments.once && result.isJobExecutionResult()) {
            var counters = Progress.byStream(result.getAllAccumulatorResults());
            LOG.info("{}: {}", COMPLETE, Summary.line(counters));
            built.afterRun().run(); // attached: the job has ended
        }
    }

    /**
     * A continuous job keeps its checkpoints in a folder of its pipeline's, {@code
     * <execution.checkpointing.dir>/<pipeline>/<job id>/chk-N}, and the savepoints it takes itself
     * in {@code <execution.checkpointing.savepoint-dir>/<pipeline>/}, so that the newest of a
     * pipeline can be found to resume from ({@code scripts/flink resume --pipeline P}). A savepoint
     * a cluster takes through its REST API without a folder named ({@code flink stop JOBID}) goes
     * to the cluster's own savepoint folder instead: name {@code --savepointPath <dir>/<pipeline>}
     * for {@code resume} to find it.
     */
    static void checkpointsOf(StreamExecutionEnvironment flink, String pipeline) {
        Configuration conf = new Configuration();
        for (var option :
                List.of(
                        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                        CheckpointingOptions.SAVEPOINT_DIRECTORY)) {
            flink.getConfiguration()
                    .getOptional(option)
                    .ifPresent(dir -> conf.set(option, FlinkSettings.under(dir, pipeline)));
        }
        flink.configure(conf);
    }

    /** The job's arguments; a mistake is a {@link ConfigException} naming it. */
    record Arguments(String pipeline, boolean once, Path config) {
        static Arguments parse(String[] args) {
            String pipeline = null;
            boolean once = false;
            Path config = null;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--pipeline" -> pipeline = value(args, ++i, "--pipeline");
                    case "--once" -> once = true;
                    case "--config" -> config = Path.of(value(args, ++i, "--config"));
                    default ->
                            throw ConfigException.of(
                                    "skippr-job",
                                    "unknown argument '"
                                            + args[i]
                                            + "'; usage: --pipeline NAME [--once] [--config FILE]");
                }
            }
            if (pipeline == null) {
                throw ConfigException.of("skippr-job", "missing --pipeline NAME");
            }
            return new Arguments(pipeline, once, config);
        }

        private static String value(String[] args, int i, String flag) {
            if (i >= args.length) {
                throw ConfigException.of("skippr-job", flag + " needs a value");
            }
            return args[i];
        }
    }
}
