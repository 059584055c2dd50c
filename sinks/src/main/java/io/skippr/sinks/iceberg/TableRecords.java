package io.skippr.sinks.iceberg;

import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The rows of one schema version of a stream as records of its table's schema: each column by name
 * (the table may hold more columns, and wider types), plus {@code _skippr_id} and {@code
 * _skippr_synced_at}.
 */
final class TableRecords {
    private final GenericRecord template;
    private final int[] positions;
    private final Type[] types;
    private final int idPosition;
    private final int syncedAtPosition;

    TableRecords(StreamSchema schema, Table table) {
        Schema tableSchema = table.schema();
        this.template = GenericRecord.create(tableSchema);
        List<Types.NestedField> fields = tableSchema.columns();
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            position.put(fields.get(i).name(), i);
        }
        this.positions = new int[schema.size()];
        this.types = new Type[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            String name = schema.columns().get(i).name();
            Integer at = position.get(name);
            if (at == null) {
                throw new IcebergSinkException("table " + table.name() + " has no column " + name);
            }
            positions[i] = at;
            types[i] = fields.get(at).type();
        }
        this.idPosition = position.get(IcebergTables.ID);
        this.syncedAtPosition = position.get(IcebergTables.SYNCED_AT);
    }

    /** {@code row} as a record of the table. */
    Record record(Row row) {
        GenericRecord record = template.copy();
        Object[] values = row.values();
        for (int i = 0; i < positions.length && i < values.length; i++) {
            record.set(positions[i], IcebergTypes.value(values[i], types[i]));
        }
        record.set(idPosition, row.id());
        record.set(syncedAtPosition, syncedAt(row.syncedAtMicros()));
        return record;
    }

    private static Object syncedAt(long micros) {
        return Instant.EPOCH.plusNanos(Math.multiplyExact(micros, 1000L)).atOffset(ZoneOffset.UTC);
    }
}
