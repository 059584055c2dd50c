package io.skippr.sources;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The bytes a source reader read, per stream, as a Flink counter in the reader's metric group under
 * {@code skippr.stream.<stream>.bytesRead}: what the source holds for the records, as it holds them
 * (a file's bytes, the server's row data), not the size of the rows once decoded. Called from the
 * reader's task thread only.
 */
public final class StreamBytes {
    private final MetricGroup group;
    private final Map<String, Counter> counters = new HashMap<>();
    private String lastStream;
    private Counter lastCounter;

    public StreamBytes(MetricGroup readerGroup) {
        this.group = readerGroup.addGroup("skippr");
    }

    /** {@code bytes} more of {@code stream} were read (0 shows the stream's counter). */
    public void read(String stream, long bytes) {
        Counter counter = stream == lastStream ? lastCounter : counters.get(stream);
        if (counter == null) {
            counter = group.addGroup("stream", stream).counter("bytesRead");
            counters.put(stream, counter);
        }
        lastStream = stream; // a reader reads one stream's rows in a row
        lastCounter = counter;
        if (bytes > 0) {
            counter.inc(bytes);
        }
    }
}
