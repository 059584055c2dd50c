package io.skippr.sources;

import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * A metric group that keeps the counters registered under it, by their dotted path below it ({@code
 * skippr.stream.s.bytesRead}), so a test reads what a reporter would.
 */
public final class RecordedMetrics extends UnregisteredMetricsGroup {
    private final String path;
    private final Map<String, Counter> counters;

    public RecordedMetrics() {
        this("", new TreeMap<>());
    }

    private RecordedMetrics(String path, Map<String, Counter> counters) {
        this.path = path;
        this.counters = counters;
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
        return new RecordedMetrics(path + name + ".", counters);
    }

    @Override
    public MetricGroup addGroup(String key, String value) {
        return new RecordedMetrics(path + key + "." + value + ".", counters);
    }
}
