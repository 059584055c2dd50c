package io.skippr.sources;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

/**
 * An enumerator context with readers 0 to n-1 registered, which keeps what the enumerator hands out
 * and sends to each until a test delivers it; no worker thread: a test drives the enumerator by
 * hand.
 */
public final class RegisteredReaders<T extends SourceSplit> implements SplitEnumeratorContext<T> {
    private final Map<Integer, ReaderInfo> readers = new HashMap<>();
    private final Map<Integer, List<T>> assigned = new HashMap<>();
    private final Map<Integer, List<SourceEvent>> events = new HashMap<>();

    public RegisteredReaders(int n) {
        for (int i = 0; i < n; i++) {
            readers.put(i, new ReaderInfo(i, "localhost"));
        }
    }

    /** The splits handed to {@code subtask} since the last call. */
    public List<T> assigned(int subtask) {
        List<T> splits = assigned.getOrDefault(subtask, new ArrayList<>());
        assigned.remove(subtask);
        return splits;
    }

    /** Delivers the events sent to {@code subtask} so far to {@code reader}. */
    public void deliver(int subtask, SourceReader<?, T> reader) {
        List<SourceEvent> sent = events.getOrDefault(subtask, List.of());
        events.remove(subtask);
        sent.forEach(reader::handleSourceEvents);
    }

    /** Drops the events sent to {@code subtask} so far, as its failure would. */
    public void lose(int subtask) {
        events.remove(subtask);
    }

    /** Unregisters {@code subtask}, as its failure does, until it {@link #register}s again. */
    public void fail(int subtask) {
        readers.remove(subtask);
        lose(subtask);
    }

    public void register(int subtask) {
        readers.put(subtask, new ReaderInfo(subtask, "localhost"));
    }

    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
        return org.apache.flink.metrics.groups.UnregisteredMetricsGroup
                .createSplitEnumeratorMetricGroup();
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        events.computeIfAbsent(subtaskId, s -> new ArrayList<>()).add(event);
    }

    @Override
    public int currentParallelism() {
        return readers.size();
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
        return Map.copyOf(readers);
    }

    @Override
    public void assignSplits(SplitsAssignment<T> newSplitAssignments) {
        newSplitAssignments
                .assignment()
                .forEach(
                        (subtask, splits) ->
                                assigned.computeIfAbsent(subtask, s -> new ArrayList<>())
                                        .addAll(splits));
    }

    @Override
    public void signalNoMoreSplits(int subtask) {}

    @Override
    public <R> void callAsync(Callable<R> callable, BiConsumer<R, Throwable> handler) {}

    @Override
    public <R> void callAsync(
            Callable<R> callable,
            BiConsumer<R, Throwable> handler,
            long initialDelay,
            long period) {}

    @Override
    public void runInCoordinatorThread(Runnable runnable) {
        runnable.run();
    }
}
