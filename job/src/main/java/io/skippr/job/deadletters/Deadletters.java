package io.skippr.job.deadletters;

import io.skippr.config.ConfiguredPipeline;
import io.skippr.config.model.ResolvedPipeline;
import io.skippr.core.spi.FailPoint;
import io.skippr.job.EmbeddedRunner;
import io.skippr.job.PipelineGraph;
import io.skippr.job.Progress;
import io.skippr.job.StateDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A pipeline's deadletters, read back from its deadletter sink: listed, and replayed through the
 * pipeline's normalise and load stages into its data sink, exactly once ({@link DeadletterReplay}).
 * What {@code skipprd deadletters} and {@code Session.deadletters()} use.
 */
public final class Deadletters {
    private static final Logger LOG = LoggerFactory.getLogger(Deadletters.class);

    private final ConfiguredPipeline pipeline;
    private final Map<String, String> env;

    public Deadletters(ConfiguredPipeline pipeline, Map<String, String> env) {
        this.pipeline = pipeline;
        this.env = Map.copyOf(env);
    }

    /**
     * The deadletters a filter takes, oldest first.
     *
     * @param where the deadletter sink they were read from
     * @param taken the deadletters the filter took
     * @param replayed the ids of every deadletter replayed so far
     * @param total every deadletter of the pipeline in the sink
     */
    public record Listing(
            String pipeline,
            String where,
            List<StoredDeadletter> taken,
            Set<String> replayed,
            int total) {}

    /**
     * What a replay did.
     *
     * @param replayed the deadletters sent through again
     * @param loaded of those, how many the data sink took
     * @param failedAgain of those, how many failed again (each now a deadletter marked as a replay
     *     of the old one)
     * @param notReplayable deadletters taken whose payload is the text a source could not decode:
     *     they are read again from the corrected source by a sync instead
     */
    public record Replay(
            Listing listing, int replayed, long loaded, long failedAgain, int notReplayable) {}

    /** The deadletters {@code filter} takes, with the sink they were read from. */
    public Listing list(DeadletterFilter filter) throws IOException {
        ResolvedPipeline run = pipeline.resolve(env);
        if (run.deadletterSink() == null) {
            throw new CannotReadDeadletters(
                    "pipeline "
                            + pipeline.name()
                            + " has no deadletter sink, so its deadletters were discarded"
                            + " (counted in the log); add a deadletter_sinks entry and set the"
                            + " pipeline's deadletter_sink to keep the next ones");
        }
        DeadletterStore store =
                DeadletterStores.open(
                        pipeline.name(), run.definition().deadletterSink(), run.deadletterSink());
        List<StoredDeadletter> all = new ArrayList<>(store.read(pipeline.name()));
        Set<String> replayed =
                replaces(run)
                        ? Set.of() // a replace run commits no positions, so no replays either
                        : DeadletterReplay.replayed(
                                PipelineGraph.committedPositions(pipeline, env, stateDir()));
        all.sort(
                Comparator.comparing(
                                StoredDeadletter::failedAt,
                                Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(StoredDeadletter::stream)
                        .thenComparing(StoredDeadletter::sourcePosition));
        List<StoredDeadletter> taken = all.stream().filter(d -> filter.takes(d, replayed)).toList();
        return new Listing(pipeline.name(), store.describe(), taken, replayed, all.size());
    }

    /** {@link #replay(DeadletterFilter, FailPoint, Consumer)} without a failure to inject. */
    public Replay replay(DeadletterFilter filter) throws Exception {
        return replay(filter, FailPoint.NONE, ui -> {});
    }

    /**
     * Sends the deadletters {@code filter} takes (never one replayed already) through the
     * pipeline's normalise and load stages into its data sink, as a bounded run on an embedded
     * Flink; returns at once, without a run, when there are none.
     *
     * @param failPoint a failure to inject, for recovery tests; {@link FailPoint#NONE} otherwise
     * @param started told the Flink web UI's address once the run starts
     */
    public Replay replay(DeadletterFilter filter, FailPoint failPoint, Consumer<String> started)
            throws Exception {
        if (replaces(pipeline.resolve(env))) {
            throw new CannotReadDeadletters(
                    "pipeline "
                            + pipeline.name()
                            + " writes with write_mode replace, which loads each run into new"
                            + " tables and swaps them in: a replay would leave only the replayed"
                            + " rows. Sync the pipeline again instead; it reads every row from the"
                            + " source");
        }
        DeadletterFilter pending =
                new DeadletterFilter(filter.stage(), filter.reason(), filter.since(), false);
        Listing listing = list(pending);
        List<StoredDeadletter> replayable =
                listing.taken().stream().filter(DeadletterReplay::replayable).toList();
        int notReplayable = listing.taken().size() - replayable.size();
        if (replayable.isEmpty()) {
            return new Replay(listing, 0, 0, 0, notReplayable);
        }
        PipelineGraph.Request request =
                new PipelineGraph.Request(
                        pipeline,
                        true,
                        env,
                        stateDir(),
                        failPoint,
                        new DeadletterReplay(replayable));
        Map<String, Map<String, Long>> counters;
        try (EmbeddedRunner runner = new EmbeddedRunner(request)) {
            String ui = runner.start();
            LOG.info("Flink web UI: {}", ui);
            started.accept(ui);
            counters = runner.run(c -> {});
        }
        long read = Progress.total(counters, Progress.READ);
        long failed = Progress.total(counters, Progress.DEADLETTERED);
        LOG.info(
                "Replayed {} deadletters of pipeline {}: {} loaded, {} failed again",
                read,
                pipeline.name(),
                read - failed,
                failed);
        return new Replay(listing, (int) read, read - failed, failed, notReplayable);
    }

    private static boolean replaces(ResolvedPipeline run) {
        return "replace".equals(run.definition().writeMode());
    }

    private Path stateDir() {
        return StateDirs.of(pipeline.config().path(), pipeline.name(), env);
    }
}
