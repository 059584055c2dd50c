package io.skippr.sources;

import java.util.HashMap;
import java.util.Map;
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
                    metrics.gauge("sourceLagMillis", () -> lagMillis(s));
                    metrics.gauge("splitsBehind", () -> behind(s));
                    return new HashMap<>();
                });
    }
}
