package io.skippr.job;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * One kind of {@link Progress} count, per stream, registered with Flink on first use twice: as an
 * accumulator (the run's summary and progress line) and as a metric (the web UI and metric
 * reporters such as Prometheus), under {@code skippr.pipeline.<pipeline>.stream.<stream>}, see
 * {@link #metric}.
 */
final class StreamCounters {
    private final String what;
    private final RuntimeContext context;
    private final MetricGroup pipeline;
    private final Map<String, Counted> counters = new HashMap<>();

    private record Counted(Accumulator<Long, Long> accumulator, Counter metric) {}

    StreamCounters(String what, String pipeline, RuntimeContext context) {
        this.what = what;
        this.context = context;
        this.pipeline = context.getMetricGroup().addGroup("skippr").addGroup("pipeline", pipeline);
    }

    void add(String stream, long n) {
        Counted counted = counters.get(stream);
        if (counted == null) {
            String name = Progress.accumulator(what, stream);
            // a task's chained operators share its accumulators: a sink's row check and its load
            // probe both count load deadletters
            Accumulator<Long, Long> accumulator = context.getAccumulator(name);
            if (accumulator == null) {
                accumulator = new LongCounter();
                context.addAccumulator(name, accumulator);
            }
            counted = new Counted(accumulator, metric(pipeline.addGroup("stream", stream), what));
            counters.put(stream, counted);
        }
        counted.accumulator.add(n);
        counted.metric.inc(n);
    }

    /**
     * The metric of one kind of count in a stream's group: {@code recordsRead}, {@code
     * recordsWritten}, and {@code recordsDeadlettered} in a {@code stage} group ({@code transform}
     * or {@code load}).
     */
    private static Counter metric(MetricGroup stream, String what) {
        return switch (what) {
            case Progress.READ -> stream.counter("recordsRead");
            case Progress.WRITTEN -> stream.counter("recordsWritten");
            case Progress.DEADLETTERED ->
                    stream.addGroup("stage", "transform").counter("recordsDeadlettered");
            case Progress.LOAD_DEADLETTERED ->
                    stream.addGroup("stage", "load").counter("recordsDeadlettered");
            default -> throw new IllegalArgumentException("no metric for " + what);
        };
    }
}
