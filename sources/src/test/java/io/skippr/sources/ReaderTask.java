package io.skippr.sources;

import io.skippr.core.record.Row;
import io.skippr.core.record.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

/**
 * A reader's task without a cluster: the context of one reader (subtask {@code subtask}), which
 * keeps what the reader sends its enumerator until a test delivers it, and the output its records
 * go to.
 */
public final class ReaderTask implements SourceReaderContext {
    private final int subtask;
    private final List<SourceEvent> toEnumerator = new ArrayList<>();
    private final CollectingOutput output = new CollectingOutput();
    private final RecordedMetrics metrics = new RecordedMetrics();

    public ReaderTask(int subtask) {
        this.subtask = subtask;
    }

    /** Delivers what the reader sent its enumerator so far. */
    public void deliver(SplitEnumerator<?, ?> enumerator) {
        List<SourceEvent> sent = new ArrayList<>(toEnumerator);
        toEnumerator.clear();
        sent.forEach(event -> enumerator.handleSourceEvent(subtask, event));
    }

    /** What the reader sent its enumerator and no test delivered yet. */
    public List<SourceEvent> sent() {
        return List.copyOf(toEnumerator);
    }

    /** The rows the reader emitted. */
    public List<Row> rows() {
        return output.rows();
    }

    /**
     * Polls {@code reader} until it sent its enumerator something (a report, a split request after
     * a finished split), for at most 30 seconds.
     */
    public void readUntilItSends(SourceReader<SourceRecord, ?> reader) throws Exception {
        int before = toEnumerator.size();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (toEnumerator.size() == before) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("the reader sent nothing in 30 s");
            }
            if (reader.pollNext(output) == InputStatus.NOTHING_AVAILABLE) {
                reader.isAvailable().get(left, TimeUnit.NANOSECONDS);
            }
        }
    }

    /** One {@code pollNext} of {@code reader} into this task's output. */
    public InputStatus poll(SourceReader<SourceRecord, ?> reader) throws Exception {
        return reader.pollNext(output);
    }

    /** The counters the reader registered, by their path ({@code skippr.stream.s.bytesRead}). */
    public RecordedMetrics metrics() {
        return metrics;
    }

    @Override
    public SourceReaderMetricGroup metricGroup() {
        return InternalSourceReaderMetricGroup.mock(metrics);
    }

    @Override
    public Configuration getConfiguration() {
        return new Configuration();
    }

    @Override
    public String getLocalHostName() {
        return "localhost";
    }

    @Override
    public int getIndexOfSubtask() {
        return subtask;
    }

    @Override
    public void sendSplitRequest() {}

    @Override
    public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {
        toEnumerator.add(sourceEvent);
    }

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
        return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
    }
}
