package io.skippr.config;

import io.skippr.config.model.PipelineDef;
import io.skippr.config.model.ResolvedPipeline;
import java.util.Map;

/** A pipeline of a loaded config, by name: what a {@code Session} runs. */
public record ConfiguredPipeline(Config config, String name) {

    /** The pipeline as the file declares it now, validated with the whole file. */
    public PipelineDef definition() {
        return config.pipelineDef(name);
    }

    /**
     * The pipeline with its entries resolved against {@code env}, as a run uses it; a missing
     * variable is a {@link ConfigException} naming it and the entry that needs it.
     */
    public ResolvedPipeline resolve(Map<String, String> env) {
        return ResolvedPipeline.resolve(config.model(), name, env);
    }
}
