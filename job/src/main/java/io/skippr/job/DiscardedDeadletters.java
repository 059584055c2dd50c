package io.skippr.job;

import io.skippr.core.record.Deadletter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where deadletters go when the pipeline has no deadletter sink: counted and logged, at the end of
 * a bounded run and at each checkpoint of a continuous one. Runs with parallelism 1, so each log
 * line carries the whole count.
 */
final class DiscardedDeadletters implements Sink<Deadletter> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DiscardedDeadletters.class);

    static String message(long n) {
        return "Discarded " + n + " deadletter records because no deadletter sink is configured";
    }

    @Override
    public SinkWriter<Deadletter> createWriter(WriterInitContext context) {
        return new SinkWriter<>() {
            private long pending;

            @Override
            public void write(Deadletter element, Context context) {
                pending++;
            }

            @Override
            public void flush(boolean endOfInput) {
                report();
            }

            @Override
            public void close() {
                report();
            }

            private void report() {
                if (pending > 0) {
                    LOG.warn(message(pending));
                    pending = 0;
                }
            }
        };
    }
}
