package io.skippr.sources;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * A metric group that keeps the counters and gauges registered under it, by their dotted path below
 * it ({@code skippr.stream.s.bytesRead}), so a test reads what a reporter would.
 */
public final class RecordedMetrics extends UnregisteredMetricsGroup {
    private final String path;
    private final Map<String, Counter> counters;
    private final Map<String, Gauge<?>> gauges;

    public RecordedMetrics() {
        this("", new TreeMap<>(), new TreeMap<>());
    }

    private RecordedMetrics(
            String path, Map<String, Counter> counters, Map<String, Gauge<?>> gauges) {
        this.path = path;
        this.counters = counters;
        this.gauges = gauges;
    }

    /** The value the gauge at {@code path} reads now; fails if none was registered there. */
    public Object gauge(String path) {
        Gauge<?> gauge = gauges.get(path);
        if (gauge == null) {
            throw new AssertionError("no gauge " + path + " among " + gauges.keySet());
        }
        return gauge.getValue();
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        gauges.put(path + name, gauge);
        return gauge;
    }

    /** The count of the counter at {@code path}; fails if none was registered there. */
    public long count(String path) {
        Counter counter = counters.get(path);
        if (counter == null) {
            throw new AssertionError("no counter " + path + " among " + counters.keySet());
        }
        return counter.getCount();
    }

    @Override
    public Counter counter(String name) {
        return counter(name, new SimpleCounter());
    }

    @Override
    public <C extends Counter> C counter(String name, C counter) {
        counters.put(path + name, counter);
        return counter;
    }

    @Override
    public MetricGroup addGroup(String name) {
        return new RecordedMetrics(path + name + ".", counters, gauges);
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
        return new RecordedMetrics(path + key + "." + value + ".", counters, gauges);
    }
}
