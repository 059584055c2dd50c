package io.skippr.sources;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.MetricGroup;

/**
 * How far a source's reading is behind what its enumerator has found to read, per stream, as two
 * Flink gauges in the enumerator's metric group, under {@code skippr.stream.<stream>}: {@code
 * splitsBehind}, the splits found (files, grown tails, cursor windows, late commits) whose reading
 * has not finished, and {@code sourceLagMillis}, how long the oldest of them has waited since it
 * was found (0 when none waits). A source that keeps up shows a lag below its poll interval; a lag
 * that grows means reading falls behind the head. Thread-safe: enumerators call it from the
 * coordinator thread, reporters read it from theirs.
 */
public final class SourceLag {
    private final MetricGroup group;
    private final LongSupplier clock;
    private final Map<String, Map<String, Long>> waiting = new HashMap<>();

    /**
     * The enumerator each registered pair of gauges reads, by the gauge's identifier: after a
     * failover Flink makes a new enumerator in the same metric group, where registering the gauges
     * again is refused (the first stay), so the gauges read whichever is current.
     */
    private static final Map<String, AtomicReference<SourceLag>> CURRENT =
            new ConcurrentHashMap<>();

    public SourceLag(MetricGroup enumeratorGroup) {
        this(enumeratorGroup, System::currentTimeMillis);
    }

    SourceLag(MetricGroup enumeratorGroup, LongSupplier clock) {
        this.group = enumeratorGroup.addGroup("skippr");
        this.clock = clock;
    }

    /** A split of {@code stream} to read was found now (again, after a reader failed: kept). */
    public synchronized void found(String stream, String split) {
        streamOf(stream).putIfAbsent(split, clock.getAsLong());
    }

    /** The split's reading finished. */
    public synchronized void read(String stream, String split) {
        streamOf(stream).remove(split);
    }

    /** Shows {@code stream}'s gauges, at 0 until a split of it is found. */
    public synchronized void show(String stream) {
        streamOf(stream);
    }

    synchronized long lagMillis(String stream) {
        long now = clock.getAsLong();
        return waiting.getOrDefault(stream, Map.of()).values().stream()
                .mapToLong(found -> Math.max(0, now - found))
                .max()
                .orElse(0);
    }

    synchronized int behind(String stream) {
        return waiting.getOrDefault(stream, Map.of()).size();
    }

    private Map<String, Long> streamOf(String stream) {
        return waiting.computeIfAbsent(
                stream,
                s -> {
                    MetricGroup metrics = group.addGroup("stream", s);
                    String key = metrics.getMetricIdentifier("sourceLagMillis");
                    AtomicReference<SourceLag> current =
                            CURRENT.computeIfAbsent(
                                    key,
                                    k -> {
                                        AtomicReference<SourceLag> shown = new AtomicReference<>();
                                        metrics.gauge(
                                                "sourceLagMillis", () -> shown.get().lagMillis(s));
                                        metrics.gauge("splitsBehind", () -> shown.get().behind(s));
                                        return shown;
                                    });
                    current.set(this);
                    return new HashMap<>();
                });
    }
}
