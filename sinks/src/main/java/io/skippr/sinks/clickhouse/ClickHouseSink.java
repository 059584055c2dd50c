package io.skippr.sinks.clickhouse;

import io.skippr.core.record.Column;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.spi.FailPoint;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Batched inserts over HTTP, at-least-once: each stream's rows are buffered and sent as one
 * TabSeparated INSERT when the batch is full, at every checkpoint and at the end of input. Rows
 * sent after the last completed checkpoint are sent again after a failure; the table's
 * ReplacingMergeTree folds those copies by {@code _skippr_id}.
 */
final class ClickHouseSink implements Sink<SourceRecord> {
    private static final long serialVersionUID = 1L;

    private final ClickHouseSettings settings;
    private final FailPoint failPoint;

    ClickHouseSink(ClickHouseSettings settings, FailPoint failPoint) {
        this.settings = settings;
        this.failPoint = failPoint;
    }

    @Override
    public SinkWriter<SourceRecord> createWriter(WriterInitContext context) {
        return new Writer(settings, new ClickHouseHttp(settings), failPoint.trigger());
    }

    static final class Writer implements SinkWriter<SourceRecord> {
        private final ClickHouseSettings settings;
        private final ClickHouseHttp http;
        private final ClickHouseTables tables;
        private final Map<String, Map<Long, Batch>> batches = new HashMap<>();
        private final FailPoint.Trigger failPoint;

        Writer(ClickHouseSettings settings, ClickHouseHttp http, FailPoint.Trigger failPoint) {
            this.settings = settings;
            this.http = http;
            this.failPoint = failPoint;
            this.tables = new ClickHouseTables(http, settings.database());
        }

        @Override
        public void write(SourceRecord record, Context context)
                throws IOException, InterruptedException {
            if (record instanceof SchemaChange change) {
                StreamSchema schema = change.schema();
                Map<Long, Batch> versions =
                        batches.computeIfAbsent(schema.stream(), s -> new HashMap<>());
                if (!versions.containsKey(schema.version())) {
                    // The table holds the new columns before the first row that uses them.
                    String table = tables.prepare(schema);
                    versions.put(schema.version(), new Batch(schema, insert(table, schema)));
                }
            } else if (record instanceof Row row) {
                Batch batch = batches.getOrDefault(row.stream(), Map.of()).get(row.schemaVersion());
                if (batch == null) {
                    throw new IOException("row of " + row.stream() + " before its schema");
                }
                batch.rows.append(batch.schema, row);
                if (batch.rows.rows() >= settings.batchRows()
                        || batch.rows.size() >= settings.batchBytes()) {
                    send(batch);
                }
            }
        }

        private String insert(String table, StreamSchema schema) {
            StringBuilder sql =
                    new StringBuilder("INSERT INTO ")
                            .append(ClickHouseSql.table(settings.database(), table))
                            .append(" (");
            for (Column c : schema.columns()) {
                sql.append(ClickHouseSql.quote(c.name())).append(", ");
            }
            ClickHouseTables.METADATA.forEach(m -> sql.append(ClickHouseSql.quote(m)).append(", "));
            return sql.replace(sql.length() - 2, sql.length(), ")")
                    .append(" FORMAT TabSeparated")
                    .toString();
        }

        private void send(Batch batch) throws InterruptedException {
            if (batch.rows.rows() > 0) {
                http.insert(batch.insert, batch.rows.bytes(), batch.rows.size());
                batch.rows.clear();
            }
        }

        /** Called at every checkpoint and at the end of input: sends every pending row. */
        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            failPoint.reached(FailPoint.Stage.BEFORE_COMMIT);
            for (Map<Long, Batch> versions : batches.values()) {
                for (Batch batch : versions.values()) {
                    send(batch);
                }
            }
            failPoint.reached(FailPoint.Stage.AFTER_COMMIT);
        }

        @Override
        public void close() {
            // Rows still buffered were never covered by a checkpoint: a restart sends them.
        }
    }

    /** One schema version's pending rows and the INSERT statement they go with. */
    private static final class Batch {
        final StreamSchema schema;
        final String insert;
        final TabSeparatedRows rows = new TabSeparatedRows();

        Batch(StreamSchema schema, String insert) {
            this.schema = schema;
            this.insert = insert;
        }
    }
}
