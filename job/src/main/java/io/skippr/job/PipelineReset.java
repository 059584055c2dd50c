package io.skippr.job;

import io.skippr.config.ConfiguredPipeline;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import io.skippr.core.spi.SourceContext;
import io.skippr.core.spi.SourceServerState;
import io.skippr.sinks.wal.WalStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.configuration.Configuration;

/**
 * {@code skipprd reset} of one pipeline: drops what its source keeps on its server (a replication
 * slot and publication), clears the positions its data sink committed, and moves its checkpoints
 * and savepoints aside, so that its next run starts as a first run does (a change data capture
 * source: with a fresh snapshot). What the data sink loaded stays.
 *
 * <p>The positions go first: a reset cut short after them (the slot still there) leaves a pipeline
 * whose next run drops the slot and starts with a fresh snapshot anyway, and running reset again
 * finishes it. A run that starts between the check and the drop keeps its slot: PostgreSQL refuses
 * to drop a slot being read, and reset says to stop the run and reset again.
 */
public final class PipelineReset {
    private final String pipeline;
    private final Path stateDir;
    private final Configuration flink;
    private final Optional<SourceServerState> source;
    private final SinkFactory sinkFactory;
    private final SinkContext sinkContext;

    private PipelineReset(
            String pipeline,
            Path stateDir,
            Configuration flink,
            Optional<SourceServerState> source,
            SinkFactory sinkFactory,
            SinkContext sinkContext) {
        this.pipeline = pipeline;
        this.stateDir = stateDir;
        this.flink = flink;
        this.source = source;
        this.sinkFactory = sinkFactory;
        this.sinkContext = sinkContext;
    }

    /**
     * The reset of {@code configured}, planned: reads the data sink's positions and refuses (before
     * anything is changed) where they cannot be cleared.
     *
     * @throws IllegalStateException when a run of the pipeline goes on (a process of this machine,
     *     or a reader of its replication slot), or it has no data sink and holds positions
     */
    public static PipelineReset plan(
            ConfiguredPipeline configured, Map<String, String> env, Path stateDir)
            throws IOException {
        String pipeline = configured.name();
        RunningJob.read(stateDir)
                .ifPresent(
                        running -> {
                            throw new IllegalStateException(
                                    "pipeline "
                                            + pipeline
                                            + " is running (process "
                                            + running.pid()
                                            + "): stop it first (Ctrl-C in its 'skipprd sync', or"
                                            + " 'skipprd savepoint --pipeline "
                                            + pipeline
                                            + " --stop'), then run 'skipprd reset --pipeline "
                                            + pipeline
                                            + "' again");
                        });
        ResolvedPipeline run = configured.resolve(env);
        Optional<SourceServerState> source =
                Connectors.source(run.dataSource().entry().kind().name())
                        .serverState(
                                new SourceContext(
                                        pipeline,
                                        run.dataSource().entry().name(),
                                        run.dataSource(),
                                        false,
                                        Map.of()));
        if (source.isPresent()) {
            source.get().checkUnused(); // refused before the user is asked to confirm
        }
        Configuration flink = FlinkSettings.forPipeline(stateDir, env);
        if (run.dataSink() == null) {
            WalStore wal = new WalStore(stateDir);
            if (!wal.committedPositions(pipeline).isEmpty()) {
                throw new IllegalStateException(
                        "pipeline "
                                + pipeline
                                + " has no data sink: its positions are kept with its records in"
                                + " the WAL store "
                                + wal.root()
                                + ", which skipprd reset does not delete. Delete that folder by"
                                + " hand (its records go with it), then run 'skipprd reset"
                                + " --pipeline "
                                + pipeline
                                + "' again");
            }
            return new PipelineReset(pipeline, stateDir, flink, source, null, null);
        }
        SinkFactory factory = Connectors.sink(run.dataSink().entry().kind().name());
        SinkContext context = PipelineGraph.dataSinkContext(pipeline, run, stateDir);
        if (factory.committedPositions(context).isEmpty()) {
            return new PipelineReset(pipeline, stateDir, flink, source, null, null);
        }
        return new PipelineReset(pipeline, stateDir, flink, source, factory, context);
    }

    /** Whether the pipeline's source keeps something on its server (a replication slot). */
    public boolean hasServerState() {
        return source.isPresent();
    }

    /** What {@link #run} does, a line each, for the user to confirm. */
    public List<String> steps() {
        List<String> steps = new ArrayList<>();
        source.ifPresent(s -> steps.add("drop " + s.describe()));
        steps.add(
                sinkFactory == null
                        ? "clear the committed positions of pipeline "
                                + pipeline
                                + " (its data sink holds none now)"
                        : "clear the positions pipeline "
                                + pipeline
                                + " committed in data sink "
                                + sinkContext.entry()
                                + " ("
                                + sinkFactory.kind()
                                + "); the rows it loaded stay");
        steps.add(
                "move the checkpoints and savepoints of pipeline "
                        + pipeline
                        + " aside (into "
                        + stateDir.resolve("superseded")
                        + " or beside their folders)");
        return steps;
    }

    /**
     * Resets the pipeline: first the positions (a kind that cannot clear them refuses before
     * anything changed), then the slot, then the checkpoints. Returns what was done, a line each.
     *
     * @throws IllegalStateException when a run reads the pipeline's slot now
     * @throws UnsupportedOperationException when the data sink cannot clear its positions; its
     *     message says what to delete by hand
     */
    public List<String> run() throws IOException {
        if (source.isPresent()) {
            source.get().checkUnused(); // before the positions go
        }
        List<String> done = new ArrayList<>();
        if (sinkFactory != null) {
            done.add(
                    "cleared the positions of pipeline "
                            + pipeline
                            + ": "
                            + sinkFactory.forgetPositions(sinkContext));
        }
        if (source.isPresent()) {
            source.get().drop().forEach(d -> done.add("dropped " + d));
        }
        Checkpoints.supersede(FlinkSettings.restorable(flink, stateDir), stateDir)
                .forEach(aside -> done.add("moved checkpoints and savepoints to " + aside));
        return done;
    }
}
