package io.skippr.config.model;

import io.skippr.config.Section;
import java.util.Map;
import java.util.Optional;

/**
 * A pipeline with every entry it uses resolved against the environment, as a run sees it.
 *
 * @param dataSink null when records stay in the WAL
 * @param schemaSink null when the data sink links none
 * @param deadletterSink null when deadletters are discarded
 */
public record ResolvedPipeline(
        PipelineDef definition,
        ResolvedSettings dataSource,
        ResolvedSettings dataSink,
        ResolvedSettings schemaSink,
        ResolvedSettings deadletterSink) {

    /** Resolves {@code pipeline} of {@code model}; a missing variable fails with all others. */
    public static ResolvedPipeline resolve(
            ConfigModel model, String pipeline, Map<String, String> env) {
        PipelineDef def = model.pipeline(pipeline).orElseThrow();
        SettingsResolver resolver = new SettingsResolver(env, model.file());
        ResolvedSettings source =
                resolver.resolve(model.entry(Section.DATA_SOURCES, def.dataSource()).orElseThrow());
        ResolvedSettings sink = null;
        ResolvedSettings schema = null;
        if (def.dataSink() != null) {
            ConnectorEntry sinkEntry =
                    model.entry(Section.DATA_SINKS, def.dataSink()).orElseThrow();
            sink = resolver.resolve(sinkEntry);
            if (sinkEntry.schemaSink() != null) {
                schema =
                        resolver.resolve(
                                model.entry(Section.SCHEMA_SINKS, sinkEntry.schemaSink())
                                        .orElseThrow());
            }
        }
        ResolvedSettings deadletter =
                def.deadletterSink() == null
                        ? null
                        : resolver.resolve(
                                model.entry(Section.DEADLETTER_SINKS, def.deadletterSink())
                                        .orElseThrow());
        resolver.throwIfErrors();
        return new ResolvedPipeline(def, source, sink, schema, deadletter);
    }

    public Optional<ResolvedSettings> sink() {
        return Optional.ofNullable(dataSink);
    }
}
