package io.skippr.sinks.stdout;

import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import io.skippr.sinks.files.JsonText;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Prints each row as one JSON line with {@code _stream}, {@code _skippr_id} and {@code
 * _skippr_synced_at}; flushed at every checkpoint. A replay prints rows again, with the same ids.
 */
final class StdoutSink implements Sink<SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final FailPoint failPoint;

    StdoutSink(FailPoint failPoint) {
        this.failPoint = failPoint;
    }

    @Override
    public SinkWriter<SourceRecord> createWriter(WriterInitContext context) {
        return new Writer(System.out, failPoint.trigger());
    }

    static final class Writer implements SinkWriter<SourceRecord> {
        private final PrintStream out;
        private final Map<String, Map<Long, StreamSchema>> schemas = new HashMap<>();
        private final StringBuilder line = new StringBuilder(256);
        private final FailPoint.Trigger failPoint;

        Writer(PrintStream out, FailPoint.Trigger failPoint) {
            this.out = out;
            this.failPoint = failPoint;
        }

        @Override
        public void write(SourceRecord record, Context context) throws IOException {
            if (record instanceof SchemaChange change) {
                schemas.computeIfAbsent(change.stream(), s -> new HashMap<>())
                        .put(change.schema().version(), change.schema());
            } else if (record instanceof Row row) {
                StreamSchema schema =
                        schemas.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
                if (schema == null) {
                    throw new IOException("row of " + row.stream() + " before its schema");
                }
                line.setLength(0);
                JsonText.writeRow(line, schema, row, true);
                out.println(line);
            }
        }

        /** At every checkpoint: the rows printed are out, as a commit is for other sinks. */
        @Override
        public void flush(boolean endOfInput) throws IOException {
            failPoint.reached(FailPoint.Stage.BEFORE_COMMIT);
            out.flush();
            failPoint.reached(FailPoint.Stage.AFTER_COMMIT);
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}
