package io.skippr.job;

import io.skippr.config.ConfiguredPipeline;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.serde.SerializerTypeInfo;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SkipprSink;
import io.skippr.core.spi.SourceContext;
import io.skippr.core.spi.SourceFactory;
import io.skippr.job.deadletters.DeadletterReplay;
import io.skippr.sinks.wal.WalStore;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.LoggerFactory;

/**
 * Builds a pipeline's Flink job graph (DESIGN §5): source, normalise/validate, data sink (or the
 * WAL store), and the deadletter side output into the deadletter sink or a counting discard. Every
 * operator's uid comes from the pipeline and its role, so savepoints survive upgrades.
 */
public final class PipelineGraph {
    private PipelineGraph() {}

    /**
     * What to run: a pipeline of a config, bounded or not, with the environment to resolve.
     *
     * @param failPoint a failure to inject, for recovery tests; {@link FailPoint#NONE} in real runs
     * @param replay deadletters to send through the normalise and load stages in place of the
     *     source's records ({@code skipprd deadletters replay}); null for a sync
     */
    public record Request(
            ConfiguredPipeline pipeline,
            boolean once,
            Map<String, String> env,
            Path stateDir,
            FailPoint failPoint,
            DeadletterReplay replay) {
        public Request(
                ConfiguredPipeline pipeline, boolean once, Map<String, String> env, Path stateDir) {
            this(pipeline, once, env, stateDir, FailPoint.NONE);
        }

        public Request(
                ConfiguredPipeline pipeline,
                boolean once,
                Map<String, String> env,
                Path stateDir,
                FailPoint failPoint) {
            this(pipeline, once, env, stateDir, failPoint, null);
        }
    }

    /**
     * The positions the pipeline's data sink (or WAL store) has committed, per stream: where the
     * next bounded run starts, and, as {@link DeadletterReplay#STREAM}'s, the deadletters replayed.
     * Read without preparing the sink ({@link SinkFactory#committedPositions}): a destination that
     * holds no commit yet is left as it is, with no schema or marker table created.
     */
    public static Map<String, String> committedPositions(
            ConfiguredPipeline pipeline, Map<String, String> env, Path stateDir) {
        ResolvedPipeline run = pipeline.resolve(env);
        if (run.dataSink() == null) {
            return new WalStore(stateDir).committedPositions(pipeline.name());
        }
        return Connectors.sink(run.dataSink().entry().kind().name())
                .committedPositions(dataSinkContext(pipeline.name(), run, stateDir));
    }

    /**
     * The context of {@code run}'s data sink for reading or clearing its positions outside a run (a
     * continuous one's, so nothing is prepared for a bounded run).
     */
    public static SinkContext dataSinkContext(
            String pipeline, ResolvedPipeline run, Path stateDir) {
        ResolvedSettings sink = run.dataSink();
        return new SinkContext(
                pipeline,
                sink.entry().name(),
                sink,
                false,
                stateDir,
                run.definition().writeMode(),
                FailPoint.NONE,
                run.schemaSink());
    }

    /** The uid of a pipeline's operator in a role: {@code orders/source}. */
    public static String uid(String pipeline, String role) {
        return pipeline + "/" + role;
    }

    /**
     * What building the graph found out.
     *
     * @param afterRun what to run once the job ended (see {@link SkipprSink#afterRun})
     * @param rowsAfterPositions for a continuous run, asks the data sink's {@link
     *     SkipprSink#rowsAfterPositions}: rows it would add again if the run does not restore a
     *     checkpoint
     * @param warnings what the user should hear before the run starts, a line each, without the
     *     {@code "warning: "} prefix
     */
    public record Built(
            Runnable afterRun,
            java.util.function.LongSupplier rowsAfterPositions,
            java.util.List<String> warnings) {
        /**
         * The warning for a continuous run that restores no checkpoint although the sink holds rows
         * a lost checkpoint accounted for; empty when there is nothing to warn of.
         *
         * @param why why there is no checkpoint: where none was found, or that none was given
         */
        public java.util.Optional<String> unrestoredWarning(String pipeline, String why) {
            long rows;
            try {
                rows = rowsAfterPositions.getAsLong();
            } catch (RuntimeException e) { // only a warning: the run goes on without it
                LoggerFactory.getLogger(PipelineGraph.class)
                        .warn("Could not count rows a run without its checkpoint loads again", e);
                return java.util.Optional.empty();
            }
            if (rows <= 0) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(
                    String.format(
                            java.util.Locale.ROOT,
                            "pipeline %s starts without its checkpoint (%s): it reads from where"
                                    + " its last --once run ended (or from the start), so %,d"
                                    + " rows that continuous runs have committed since are loaded"
                                    + " again. To resume exactly, stop it and restore the state"
                                    + " folder; write_mode merge would replace such rows instead"
                                    + " of adding them.",
                            pipeline,
                            why,
                            rows));
        }
    }

    /** Adds the pipeline's operators to {@code env}. */
    public static Built build(StreamExecutionEnvironment env, Request request) {
        ResolvedPipeline run = request.pipeline().resolve(request.env());
        String name = request.pipeline().name();
        env.setRuntimeMode(
                request.once() ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING);
        // Sinks that gather a checkpoint's work in one operator (the Iceberg aggregator) label it
        // with the checkpoint whose barrier they saw; unaligned checkpoints would let work of
        // checkpoint c arrive after c's snapshot and be committed as c+1's. A cluster setting
        // must not turn them on for Skippr's jobs.
        env.getCheckpointConfig().enableUnalignedCheckpoints(false);
        // Records are immutable (SourceRecordSerializer.isImmutableType) and no operator keeps or
        // changes one it was handed: chained operators pass them on without a copy per hop
        env.getConfig().enableObjectReuse();
        if (request.replay() != null) {
            // one reader of the deadletters: every normalise step sees the schemas before the rows
            env.setParallelism(1);
        }

        String sinkRole = run.dataSink() == null ? "wal" : "sink/" + run.dataSink().entry().name();
        var sourceFactory = Connectors.source(run.dataSource().entry().kind().name());
        SourceContext checkContext =
                new SourceContext(
                        name,
                        run.dataSource().entry().name(),
                        run.dataSource(),
                        request.once(),
                        Map.of());
        var streams = sourceFactory.check(checkContext);
        SkipprSink sink = dataSink(request, run);
        java.util.List<String> warnings =
                new java.util.ArrayList<>(serverWarnings(sourceFactory, checkContext));
        // whether rows read again can be added again: unknown streams (a file source) may be
        boolean appends = streams.isEmpty() || streams.stream().anyMatch(sink::appends);
        for (StreamSchema stream : streams) {
            if (stream.primaryKey().isEmpty()
                    && stream.cursorColumn() == null
                    && sink.appends(stream)) {
                warnings.add(fullReadAppended(name, stream.stream()));
            }
        }
        SourceContext sourceContext =
                new SourceContext(
                        name,
                        run.dataSource().entry().name(),
                        run.dataSource(),
                        request.once(),
                        sink.committedPositions(),
                        sink.committedPositionsReader());
        DataStream<SourceRecord> records;
        if (request.replay() == null) {
            records =
                    env.fromSource(
                                    sourceFactory.create(sourceContext),
                                    WatermarkStrategy.noWatermarks(),
                                    uid(name, "source"),
                                    SerializerTypeInfo.SOURCE_RECORD)
                            .uid(uid(name, "source"));
        } else {
            String source =
                    "data_sources."
                            + run.dataSource().entry().name()
                            + " ("
                            + run.dataSource().entry().kind().name()
                            + ")";
            records =
                    env.fromData(
                                    SerializerTypeInfo.SOURCE_RECORD,
                                    request.replay()
                                            .records(source, streams, sink.committedPositions())
                                            .toArray(SourceRecord[]::new))
                            .uid(uid(name, "replay"))
                            .name(uid(name, "replay"));
        }
        if (!request.once()) {
            records =
                    records.transform(
                                    uid(name, "source/progress"),
                                    SerializerTypeInfo.SOURCE_RECORD,
                                    new ReadProgress())
                            .uid(uid(name, "source/progress"));
        }
        SingleOutputStreamOperator<SourceRecord> normalised =
                records.process(new Normaliser(name), SerializerTypeInfo.SOURCE_RECORD)
                        .uid(uid(name, "normalise"))
                        .name(uid(name, "normalise"));
        DataStream<SourceRecord> checked = normalised;
        if (request.failPoint().at(FailPoint.Stage.MID_BATCH)) {
            checked =
                    normalised
                            .map(
                                    new FaultInjection(request.failPoint()),
                                    SerializerTypeInfo.SOURCE_RECORD)
                            .uid(uid(name, "fault"))
                            .name(uid(name, "fault"));
        }
        SingleOutputStreamOperator<SourceRecord> loadable =
                checked.process(
                                new LoadChecker(name, sink.loadCheck()),
                                SerializerTypeInfo.SOURCE_RECORD)
                        .uid(uid(name, sinkRole + "/check"))
                        .name(uid(name, sinkRole + "/check"));
        DataStream<io.skippr.core.record.Deadletter> deadletters =
                normalised
                        .getSideOutput(Normaliser.DEADLETTERS)
                        .union(loadable.getSideOutput(Normaliser.DEADLETTERS));
        SingleOutputStreamOperator<SourceRecord> probed = loadable;
        if (sink.loadProbe() != null) {
            probed =
                    loadable.transform(
                                    uid(name, sinkRole + "/probe"),
                                    SerializerTypeInfo.SOURCE_RECORD,
                                    new LoadProber(name, sink.loadProbe()))
                            .uid(uid(name, sinkRole + "/probe"));
            deadletters = deadletters.union(probed.getSideOutput(Normaliser.DEADLETTERS));
        }
        DataStream<SourceRecord> counted =
                probed.process(new WrittenCounter(name), SerializerTypeInfo.SOURCE_RECORD)
                        .uid(uid(name, sinkRole + "/count"))
                        .name(uid(name, sinkRole + "/count"));
        java.util.List<SkipprSink> sinks = new java.util.ArrayList<>(java.util.List.of(sink));

        // The deadletter sink goes first: in a bounded run the data sink commits (its data and
        // positions) only once the deadletter sink committed, so no run moves its positions past
        // a record whose deadletter was not kept (DESIGN §6).
        DataStream<Long> deadlettersCommitted = null;
        if (run.deadletterSink() == null) {
            deadletters
                    .sinkTo(new DiscardedDeadletters())
                    .setParallelism(1)
                    .uid(uid(name, "deadletters/discard"))
                    .name(uid(name, "deadletters/discard"));
        } else {
            ResolvedSettings dl = run.deadletterSink();
            String role = "deadletters/" + dl.entry().name();
            long dataRun = sink.nextRun();
            DataStream<SourceRecord> rows =
                    deadletters
                            .flatMap(
                                    new DeadletterRows(
                                            dataRun,
                                            request.replay() == null
                                                    ? Map.of()
                                                    : request.replay().origins()),
                                    SerializerTypeInfo.SOURCE_RECORD)
                            .uid(uid(name, role + "/rows"))
                            .name(uid(name, role + "/rows"));
            SkipprSink deadletterSink =
                    Connectors.sink(dl.entry().kind().name())
                            .create(
                                    new SinkContext(
                                                    name,
                                                    dl.entry().name(),
                                                    dl,
                                                    request.once(),
                                                    request.stateDir(),
                                                    "append",
                                                    request.failPoint().forDeadletterSink())
                                            .deadletters(dataRun));
            deadlettersCommitted = deadletterSink.addTo(rows, uid(name, role), null);
            sinks.add(deadletterSink);
        }
        sink.addTo(counted, uid(name, sinkRole), deadlettersCommitted);
        Runnable release = request.once() ? () -> release(sourceFactory, sourceContext) : () -> {};
        return new Built(
                () -> {
                    sinks.forEach(SkipprSink::afterRun);
                    release.run();
                },
                request.once() || !appends ? () -> 0 : sink::rowsAfterPositions,
                java.util.List.copyOf(warnings));
    }

    /**
     * What the source keeps on its server for the pipeline and should be warned of before the run
     * (a replication slot nobody read for long); a failure to read it is logged, and the run goes
     * on without it.
     */
    public static java.util.List<String> serverWarnings(
            SourceFactory factory, SourceContext context) {
        var state = factory.serverState(context);
        if (state.isEmpty()) {
            return java.util.List.of();
        }
        try {
            return state.get().warnings();
        } catch (java.io.IOException | RuntimeException e) {
            LoggerFactory.getLogger(PipelineGraph.class)
                    .warn("Could not read {}: {}", state.get().describe(), e.getMessage());
            return java.util.List.of();
        }
    }

    /**
     * After a bounded run: the source lets its server forget what the sink's commits no longer need
     * (a replication slot's WAL). A failure is logged: the next run's stream confirms the same.
     */
    private static void release(SourceFactory factory, SourceContext context) {
        try {
            var state = factory.serverState(context);
            if (state.isPresent()) {
                state.get().release();
            }
        } catch (java.io.IOException | RuntimeException e) {
            LoggerFactory.getLogger(PipelineGraph.class)
                    .warn(
                            "Could not release what the source keeps for the next run: {}",
                            e.getMessage());
        }
    }

    /** The warning for a stream that every run reads in full and the sink adds again. */
    static String fullReadAppended(String pipeline, String stream) {
        return "pipeline "
                + pipeline
                + ": stream "
                + stream
                + " has no primary key and no cursor_column, so every run reads all of it and the"
                + " data sink appends it again. Give the table a primary key (the sink then merges"
                + " on it), set cursor_column, or write write_mode: replace on a SQL sink.";
    }

    private static SkipprSink dataSink(Request request, ResolvedPipeline run) {
        String name = request.pipeline().name();
        String mode = run.definition().writeMode();
        if (run.dataSink() == null) {
            return new WalStore(request.stateDir())
                    .sink(
                            new SinkContext(
                                    name,
                                    "wal",
                                    null,
                                    request.once(),
                                    request.stateDir(),
                                    mode,
                                    request.failPoint().forDataSink()));
        }
        ResolvedSettings sink = run.dataSink();
        return Connectors.sink(sink.entry().kind().name())
                .create(
                        new SinkContext(
                                        name,
                                        sink.entry().name(),
                                        sink,
                                        request.once(),
                                        request.stateDir(),
                                        mode,
                                        request.failPoint().forDataSink(),
                                        run.schemaSink())
                                .withSoftDeletes(run.definition().softDeletes()));
    }
}
