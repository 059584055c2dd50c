package io.skippr.job;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.SerializedValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline on an embedded Flink MiniCluster with the web UI on 127.0.0.1: what {@code
 * skipprd sync} and {@code Session.sync} use. A continuous run resumes from the pipeline's latest
 * retained checkpoint; progress is read from the job's accumulators while it runs.
 */
public final class EmbeddedRunner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRunner.class);

    private final PipelineGraph.Request request;
    private final Configuration conf;
    private MiniCluster cluster;
    private volatile JobID job;
    private volatile boolean stopping;
    private Map<String, Map<String, Long>> currentOrLast = Map.of();
    private static final long LAG_LOOK_NANOS = 5_000_000_000L;
    private boolean lagGauges;
    private long lastLagLook;
    private volatile Optional<ReplicationLagGauges.Lag> lag = Optional.empty();
    private CompletableFuture<Void> starting;
    private StreamExecutionEnvironment env;
    private Runnable afterRun;
    private final JobTrouble trouble;
    private Consumer<String> troubleListener = text -> {};
    private Optional<org.apache.flink.core.fs.Path> restoreFrom = Optional.empty();
    private org.apache.flink.core.fs.Path fromSavepoint;

    public EmbeddedRunner(PipelineGraph.Request request) {
        this.request = request;
        this.conf = FlinkSettings.forPipeline(request.stateDir(), request.env());
        this.trouble = new JobTrouble(request.stateDir());
        FlinkSettings.webUi(conf, request.env());
        // the UI shows the run; it does not take jars to run (any local user could upload one)
        conf.setString("web.submit.enable", "false");
        conf.setString("heartbeat.interval", "1000");
        // no Kerberos or Hadoop tokens to obtain in a local run; looking for them costs ~0.5 s
        conf.setString("security.delegation.tokens.enabled", "false");
        if (request.once()) {
            FlinkSettings.boundedRecovery(conf);
        }
    }

    /**
     * Starts the cluster and, meanwhile on this thread, builds the pipeline's graph (which prepares
     * its sink and plans its source); returns the web UI's address.
     */
    public String start() throws Exception {
        FlinkPlugins.initializeFileSystems(conf, request.env());
        int parallelism = conf.get(org.apache.flink.configuration.CoreOptions.DEFAULT_PARALLELISM);
        cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(Math.max(parallelism, 1) + 2)
                                .build());
        CompletableFuture<Void> started = new CompletableFuture<>();
        Thread starter =
                new Thread(
                        () -> {
                            try {
                                cluster.start();
                                started.complete(null);
                            } catch (Throwable t) {
                                started.completeExceptionally(t);
                            }
                        },
                        "skippr-minicluster-start");
        starter.setDaemon(true);
        starter.start();
        starting = started;
        env = new StreamExecutionEnvironment(conf);
        PipelineGraph.Built built = PipelineGraph.build(env, request);
        afterRun = built.afterRun();
        built.warnings().forEach(w -> tell(JobTrouble.WARNING + w));
        if (fromSavepoint != null) {
            restoreFrom = Optional.of(fromSavepoint);
        } else if (!request.once()) {
            restoreFrom = Checkpoints.newest(restorable());
            if (restoreFrom.isEmpty()) {
                built.unrestoredWarning(
                                request.pipeline().name(),
                                "none in "
                                        + restorable().stream()
                                                .map(Object::toString)
                                                .collect(
                                                        java.util.stream.Collectors.joining(
                                                                " nor ")))
                        .map(w -> JobTrouble.WARNING + w)
                        .ifPresent(this::tell);
            }
        }
        try {
            started.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
        return cluster.getRestAddress().get().toString();
    }

    /** {@link FlinkSettings#restorable} of this run's pipeline. */
    private java.util.List<org.apache.flink.core.fs.Path> restorable() {
        return FlinkSettings.restorable(conf, request.stateDir());
    }

    /**
     * Starts the run from {@code savepoint} (a savepoint's or retained checkpoint's folder) instead
     * of the pipeline's newest checkpoint. Continuous runs only; set it before {@link #start}.
     */
    public void restoreFrom(String savepoint) {
        if (request.once()) {
            throw new IllegalArgumentException(
                    "a --once run starts from the positions its data sink committed; it restores"
                            + " no savepoint");
        }
        this.fromSavepoint = new org.apache.flink.core.fs.Path(savepoint);
    }

    /**
     * Who hears, besides the log, of failed checkpoints, recoveries and restarts while the job
     * runs, and of rows a continuous run without its checkpoint loads again: a line each, a warning
     * starting with {@code "warning: "}. Set it before {@link #start}.
     */
    public void onTrouble(Consumer<String> listener) {
        this.troubleListener = listener;
    }

    /**
     * Submits the pipeline and waits for it to end, reporting progress about every second. Returns
     * the final counters; a failed job throws its cause.
     */
    public Map<String, Map<String, Long>> run(Consumer<Map<String, Map<String, Long>>> progress)
            throws Exception {
        if (env == null) {
            throw new IllegalStateException("start() the runner first");
        }
        try {
            return runJob(env, progress);
        } finally {
            afterRun.run();
        }
    }

    private Map<String, Map<String, Long>> runJob(
            StreamExecutionEnvironment env, Consumer<Map<String, Map<String, Long>>> progress)
            throws Exception {
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName("skippr " + request.pipeline().name() + (request.once() ? " --once" : ""));
        if (restoreFrom.isPresent()) {
            LOG.info(
                    "Resuming pipeline {} from {} {}",
                    request.pipeline().name(),
                    restoreFrom.get().getName().startsWith("savepoint-")
                            ? "savepoint"
                            : "checkpoint",
                    restoreFrom.get());
            graph.setSavepointRestoreSettings(
                    SavepointRestoreSettings.forPath(restoreFrom.get().toString(), false));
        }
        job = cluster.submitJob(graph).get().getJobID();
        if (request.once()) { // no savepoints of a bounded run: it commits its positions itself
            return awaitJob(progress);
        }
        RunningJob running =
                RunningJob.of(cluster.getRestAddress().get().toString(), job.toHexString());
        running.write(request.stateDir());
        try {
            return awaitJob(progress);
        } finally {
            running.remove(request.stateDir());
        }
    }

    private Map<String, Map<String, Long>> awaitJob(
            Consumer<Map<String, Map<String, Long>>> progress) throws Exception {
        var result = cluster.requestJobResult(job);
        while (!result.isDone()) {
            try {
                result.get(1, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                look();
                progress.accept(currentOrLast);
            }
        }
        JobResult jobResult = result.get();
        if (stopping
                && jobResult.getApplicationStatus()
                        == org.apache.flink.runtime.clusterframework.ApplicationStatus.CANCELED) {
            LOG.info(
                    "Pipeline {} stopped; it resumes from its last checkpoint on the next start",
                    request.pipeline().name());
            return currentOrLast;
        }
        ClassLoader loader = getClass().getClassLoader();
        JobExecutionResult done = jobResult.toJobExecutionResult(loader);
        Map<String, Map<String, Long>> counters =
                Progress.byStream(done.getAllAccumulatorResults());
        if (request.once()) {
            Checkpoints.supersede(restorable(), request.stateDir())
                    .forEach(
                            aside ->
                                    tell(
                                            "the checkpoints and savepoints of earlier continuous runs of"
                                                    + " pipeline "
                                                    + request.pipeline().name()
                                                    + " are moved to "
                                                    + aside
                                                    + ": this run committed newer positions, and"
                                                    + " the next continuous run starts from"
                                                    + " them"));
        }
        progress.accept(counters);
        return counters;
    }

    /**
     * The change-data-capture source's lag (bytes of WAL, seconds behind the server's commits),
     * read at most every few seconds while the job runs; empty for other sources, or before the
     * first reading. Only with {@link #readLag}.
     */
    public Optional<ReplicationLagGauges.Lag> replicationLag() {
        return lag;
    }

    /** Reads the source's lag gauges while the job runs ({@link #replicationLag}). */
    public void readLag() {
        lagGauges = true;
    }

    /** Reads the running job's counters and tells what went wrong since the last look. */
    private void look() {
        AccessExecutionGraph graph;
        try {
            graph = cluster.getExecutionGraph(job).get();
        } catch (Exception e) {
            return; // between attempts the job has no graph to read
        }
        Map<String, Map<String, Long>> now = counters(graph);
        if (!now.isEmpty()) {
            currentOrLast = now;
        }
        if (lagGauges && System.nanoTime() - lastLagLook >= LAG_LOOK_NANOS) {
            lastLagLook = System.nanoTime();
            try {
                lag = ReplicationLagGauges.read(cluster.getRestAddress().get().toString(), graph);
            } catch (Exception e) {
                lag = Optional.empty();
            }
        }
        try {
            trouble.look(graph, System.currentTimeMillis()).forEach(this::tell);
        } catch (RuntimeException e) {
            LOG.debug("Could not read the job's checkpoints and failures", e);
        }
    }

    private void tell(String line) {
        if (line.startsWith(JobTrouble.WARNING)) {
            LOG.warn(line.substring(JobTrouble.WARNING.length()));
        } else {
            LOG.info(line);
        }
        troubleListener.accept(line);
    }

    private Map<String, Map<String, Long>> counters(AccessExecutionGraph graph) {
        try {
            Map<String, Object> values = new HashMap<>();
            for (var e : graph.getAccumulatorsSerialized().entrySet()) {
                SerializedValue<org.apache.flink.util.OptionalFailure<Object>> v = e.getValue();
                values.put(
                        e.getKey(), v.deserializeValue(getClass().getClassLoader()).getUnchecked());
            }
            return Progress.byStream(values);
        } catch (Exception e) {
            return Map.of();
        }
    }

    /** Cancels the running job; its checkpoints are retained for the next start. */
    public void cancel(Duration timeout) {
        stopping = true;
        JobID running = job;
        if (cluster != null && running != null) {
            try {
                cluster.cancelJob(running)
                        .get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                LOG.warn("Could not cancel the job cleanly: {}", e.toString());
            }
        }
    }

    @Override
    public void close() throws Exception {
        if (starting != null) {
            try {
                starting.join(); // a cluster still starting cannot be closed
            } catch (CompletionException e) {
                LOG.debug("The cluster did not start", e);
            }
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
