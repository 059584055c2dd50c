package io.skippr.sources;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

/**
 * An enumerator context with no reader registered, so nothing is handed out, and no worker thread:
 * a test drives the enumerator by hand.
 */
public final class NoReaders<T extends SourceSplit> implements SplitEnumeratorContext<T> {
    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
        return org.apache.flink.metrics.groups.UnregisteredMetricsGroup
                .createSplitEnumeratorMetricGroup();
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

    @Override
    public int currentParallelism() {
        return 1;
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
        return Map.of();
    }

    @Override
    public void assignSplits(SplitsAssignment<T> newSplitAssignments) {}

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
