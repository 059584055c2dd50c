package io.skippr.job;

import io.skippr.config.ConfigDiscovery;
import io.skippr.config.ConfiguredPipeline;
import io.skippr.job.deadletters.Deadletters;
import java.nio.file.Path;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline from Java, as {@code skipprd sync} does: {@code new
 * Session(Config.discover().getPipeline("orders")).sync(true)}.
 */
public final class Session {
    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final ConfiguredPipeline pipeline;
    private final Map<String, String> env;

    public Session(ConfiguredPipeline pipeline) {
        this(pipeline, System.getenv());
    }

    public Session(ConfiguredPipeline pipeline, Map<String, String> env) {
        this.pipeline = pipeline;
        this.env = Map.copyOf(env);
    }

    /**
     * Runs the pipeline on an embedded Flink. With {@code once}, copies what the source holds now
     * and returns the counters per stream; without, runs until the thread is interrupted.
     */
    public Map<String, Map<String, Long>> sync(boolean once) throws Exception {
        Path stateDir = StateDirs.of(pipeline.config().path(), pipeline.name(), env);
        try (EmbeddedRunner runner =
                new EmbeddedRunner(new PipelineGraph.Request(pipeline, once, env, stateDir))) {
            LOG.info("Flink web UI: {}", runner.start());
            Map<String, Map<String, Long>> counters = runner.run(c -> {});
            if (once) {
                LOG.info("{}: {}", SkipprJob.COMPLETE, Summary.line(counters));
            }
            return counters;
        }
    }

    /**
     * The pipeline's deadletters, read back from its deadletter sink: {@code
     * session.deadletters().list(DeadletterFilter.PENDING)} and {@code .replay(...)}, as {@code
     * skipprd deadletters list} and {@code replay} do.
     */
    public Deadletters deadletters() {
        return new Deadletters(pipeline, env);
    }

    /** The state folder this session's pipeline uses. */
    public Path stateDir() {
        return StateDirs.of(pipeline.config().path(), pipeline.name(), env);
    }

    static Path configFile(Map<String, String> env) {
        return ConfigDiscovery.require(null, env, Path.of("").toAbsolutePath());
    }
}
