package io.skippr.sinks.iceberg;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.skipprlake.SkipprLakeCatalog;
import java.io.Closeable;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * A SkipprLake in a temporary folder (embedded catalog) for the sinks module's Iceberg tests:
 * writes rows through the real writer and reads tables back with Iceberg's generic reader.
 */
final class TestLake {
    static final StreamSchema ORDERS =
            new StreamSchema(
                    "orders",
                    List.of(
                            Column.of("id", DataType.INT64),
                            Column.of("amount", DataType.decimal(12, 2)),
                            Column.of("status", DataType.STRING)),
                    List.of("id"),
                    "id");

    private final Path warehouse;

    TestLake(Path warehouse) {
        this.warehouse = warehouse;
    }

    IcebergCatalogFactory catalog() {
        return SkipprLakeCatalog.of("test.", warehouse.toString(), null, null, null, null, null);
    }

    IcebergSinkSettings settings(boolean bounded, long targetFileBytes, boolean compact) {
        return IcebergSinks.prepare(
                new IcebergSinkSettings(
                        catalog(), "skippr", "p", "lake", 0, bounded, targetFileBytes, compact));
    }

    /** Settings as {@link #settings(boolean, long, boolean)}, for the deadletter sink of a run. */
    IcebergSinkSettings deadletterSettings(boolean bounded, boolean compact, long dataRun) {
        return IcebergSinks.prepare(
                new IcebergSinkSettings(
                                catalog(), "skippr", "p", "rejects", 0, bounded, 1 << 20, compact)
                        .deadletters(dataRun));
    }

    /** Deadletter-like rows: an id and the data run they belong to. */
    static final StreamSchema DEADLETTERS =
            new StreamSchema(
                    "skippr_deadletters",
                    List.of(Column.of("id", DataType.INT64), Column.of("data_run", DataType.INT64)),
                    List.of());

    /** The results one writer hands on after writing deadletters {@code from..to-1} of a run. */
    static Collection<IcebergWriteResult> writeDeadletters(
            IcebergSinkSettings settings, long from, long to, long dataRun) throws Exception {
        try (IcebergWriter writer = new IcebergWriter(settings, 0, 1, 0, "test", from)) {
            writer.write(new SchemaChange(DEADLETTERS), null);
            for (long id = from; id < to; id++) {
                String position = "dl:" + id;
                writer.write(
                        Row.insert(
                                        DEADLETTERS.stream(),
                                        DEADLETTERS.version(),
                                        new Object[] {id, dataRun},
                                        position)
                                .identified(
                                        SkipprId.of(DEADLETTERS.stream(), position),
                                        1_700_000_000_000_000L),
                        null);
            }
            return writer.prepareCommit();
        }
    }

    static Row order(StreamSchema schema, long id) {
        Object[] values = {id, BigDecimal.valueOf(id * 125, 2), "new"};
        return Row.insert(schema.stream(), schema.version(), values, "orders:" + id)
                .identified(SkipprId.of(schema.stream(), "orders:" + id), 1_700_000_000_000_000L);
    }

    /** The results one writer subtask hands on after writing ids {@code from..to-1}. */
    static Collection<IcebergWriteResult> write(
            IcebergSinkSettings settings, StreamSchema schema, long from, long to)
            throws Exception {
        return write(settings, 0, 1, schema, from, to);
    }

    static Collection<IcebergWriteResult> write(
            IcebergSinkSettings settings,
            int subtask,
            int parallelism,
            StreamSchema schema,
            long from,
            long to)
            throws Exception {
        try (IcebergWriter writer =
                new IcebergWriter(settings, subtask, parallelism, 0, "test", from)) {
            writer.write(new SchemaChange(schema), null);
            for (long id = from; id < to; id++) {
                writer.write(order(schema, id), null);
            }
            return writer.prepareCommit();
        }
    }

    Table table(String name) throws Exception {
        Catalog catalog = catalog().open();
        try {
            return catalog.loadTable(org.apache.iceberg.catalog.TableIdentifier.of("skippr", name));
        } finally {
            ((Closeable) catalog).close();
        }
    }

    List<Record> rows(String table) throws Exception {
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table(table)).build()) {
            for (Record r : records) {
                rows.add(r.copy());
            }
        }
        return rows;
    }
}
