package io.skippr.sinks.iceberg;

import io.skippr.core.record.CursorValues;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.types.Types;

/**
 * One stream's rows of a checkpoint in write_mode merge: per primary key only the newest version
 * (the highest cursor value, then the one read last; a row without a cursor value sorts below any
 * with one), kept in memory until the checkpoint. Then each key becomes one equality delete on the
 * key, and, unless its newest version is a delete ({@code _skippr_op = 'delete'} of change data),
 * one data row: committed in one row delta, the delete removes the key's row of every earlier
 * commit and the data row is the key's only row after it.
 */
final class MergeRows {
    /**
     * The most keys a stream's rows hold in memory: then they are written out as one part of the
     * checkpoint, and the next rows start another (the commit settles keys two parts hold).
     */
    static final int MAX_KEYS = 100_000;

    private final String stream;
    private final Map<List<Object>, Newest> newest = new LinkedHashMap<>();
    private final Map<Long, TableRecords> records = new HashMap<>();
    private StreamSchema latest;
    private long rows;
    private Object maxCursor;

    private record Newest(StreamSchema schema, Row row, Object cursor) {}

    MergeRows(String stream) {
        this.stream = stream;
    }

    /** Keeps {@code row} (of {@code schema}) if it is its key's newest version so far. */
    void put(StreamSchema schema, Row row) {
        latest = schema;
        List<Object> key = new ArrayList<>(schema.primaryKey().size());
        for (String column : schema.primaryKey()) {
            key.add(comparable(row.value(schema.indexOf(column))));
        }
        Object cursor = cursor(schema, row);
        Newest before = newest.get(key);
        if (before == null || notOlder(cursor, before.cursor())) {
            newest.put(key, new Newest(schema, row, cursor));
        }
        rows++;
        maxCursor = CursorValues.max(maxCursor, cursor);
    }

    String stream() {
        return stream;
    }

    /** The keys held. */
    int keys() {
        return newest.size();
    }

    /**
     * Writes the kept rows into data files and their keys into equality delete files of {@code
     * table}, whose identifier fields are the key ({@link IcebergTables#ensure}).
     */
    IcebergWriteResult finish(
            Table table, int subtask, int parallelism, int attempt, String operation, long bytes)
            throws IOException {
        Schema schema = table.schema();
        List<Types.NestedField> keyFields = new ArrayList<>();
        for (String column : latest.primaryKey()) {
            keyFields.add(IcebergTables.columns(schema).get(column));
        }
        // a delete row holds the key, and the cursor value of the key's newest version, which
        // KeyConflicts compares across the results of one commit
        List<Types.NestedField> rowFields = new ArrayList<>(keyFields);
        String cursorColumn = latest.cursorColumn();
        if (cursorColumn != null && !latest.primaryKey().contains(cursorColumn)) {
            rowFields.add(IcebergTables.columns(schema).get(cursorColumn));
        }
        Schema rowSchema = new Schema(rowFields);
        RollingDataWriter<Record> data =
                ParquetDataFiles.writer(table, subtask, attempt, operation, bytes);
        RollingEqualityDeleteWriter<Record> deletes =
                ParquetDataFiles.equalityDeletes(
                        table,
                        keyFields.size(),
                        rowSchema,
                        subtask,
                        attempt,
                        operation + "-eq",
                        bytes);
        try {
            GenericRecord keyTemplate = GenericRecord.create(rowSchema);
            for (Map.Entry<List<Object>, Newest> e : newest.entrySet()) {
                Newest kept = e.getValue();
                GenericRecord key = keyTemplate.copy();
                for (int i = 0; i < rowFields.size(); i++) {
                    int at = kept.schema().indexOf(rowFields.get(i).name());
                    Object value = at < kept.row().values().length ? kept.row().value(at) : null;
                    key.set(i, IcebergTypes.value(value, rowFields.get(i).type()));
                }
                deletes.write(key);
                if (kept.row().op() != Operation.DELETE) {
                    data.write(
                            records.computeIfAbsent(
                                            kept.schema().version(),
                                            v -> new TableRecords(kept.schema(), table))
                                    .record(kept.row()));
                }
            }
        } finally {
            data.close();
            deletes.close();
        }
        return IcebergWriteResult.files(
                subtask,
                parallelism,
                stream,
                data.result().dataFiles(),
                rows,
                maxCursor == null ? null : CursorValues.toText(maxCursor),
                cursorColumn == null
                        ? null
                        : latest.columns().get(latest.indexOf(cursorColumn)).type().kind().name(),
                deletes.result().deleteFiles());
    }

    private static Object cursor(StreamSchema schema, Row row) {
        if (schema.cursorColumn() == null) {
            return null;
        }
        int at = schema.indexOf(schema.cursorColumn());
        return at < row.values().length ? row.value(at) : null;
    }

    /** Whether a version with cursor {@code next} replaces one with {@code kept}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static boolean notOlder(Object next, Object kept) {
        if (next == null) {
            return kept == null; // read last, and neither can be ordered
        }
        if (kept == null) {
            return true;
        }
        if (next instanceof Number a
                && kept instanceof Number b
                && !next.getClass().equals(kept.getClass())) {
            // a widened cursor column: an Integer of the older schema version against a Long
            return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString())) >= 0;
        }
        return ((Comparable) next).compareTo(kept) >= 0;
    }

    /** A key value that is equal to another exactly when their contents are. */
    private static Object comparable(Object value) {
        return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
    }
}
