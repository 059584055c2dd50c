package io.skippr.conformance;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/** An Iceberg table's current rows, as an Iceberg reader sees them, for the kit's fixtures. */
final class IcebergRows {
    private IcebergRows() {}

    /** Every row of {@code id}'s current snapshot (none if no such table); closes the catalog. */
    static List<Map<String, Object>> read(Catalog catalog, TableIdentifier id) throws Exception {
        try {
            if (!catalog.tableExists(id)) {
                return List.of();
            }
            Table table = catalog.loadTable(id);
            List<Types.NestedField> fields = table.schema().columns();
            List<Map<String, Object>> rows = new ArrayList<>();
            try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
                for (Record record : records) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 0; i < fields.size(); i++) {
                        Object value = record.get(i);
                        if (value instanceof ByteBuffer buffer) {
                            byte[] bytes = new byte[buffer.remaining()];
                            buffer.duplicate().get(bytes);
                            value = bytes;
                        }
                        row.put(fields.get(i).name(), value);
                    }
                    rows.add(row);
                }
            }
            return rows;
        } finally {
            ((Closeable) catalog).close();
        }
    }
}
