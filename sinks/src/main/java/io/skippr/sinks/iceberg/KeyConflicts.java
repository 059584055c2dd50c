package io.skippr.sinks.iceberg;

import io.skippr.core.naming.Names;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingPositionDeleteWriter;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * One merge commit's keys that more than one write result holds: writer subtasks (or two streams of
 * one table) dedupe only their own rows, and a commit's equality deletes never touch the data rows
 * of the same commit, so without this a key written by two subtasks in one checkpoint (a CDC
 * snapshot split's row and the stream's change of it, in one {@code --once} commit) would be held
 * twice. Each result's equality deletes carry, besides the key, the cursor value of the key's
 * newest version ({@link MergeRows}); the result with the highest wins (on a tie, or without a
 * cursor, the later result), and the data rows the other results wrote for the key get position
 * deletes in the same row delta. Reads the commit's delete files, and the data files of results
 * that lost a key; nothing when a table's commit has one result.
 */
final class KeyConflicts {
    private final IcebergSinkSettings settings;

    KeyConflicts(IcebergSinkSettings settings) {
        this.settings = settings;
    }

    /** The position deletes of the losing data rows of {@code results} (one table's); or none. */
    List<DeleteFile> resolve(Table table, List<IcebergWriteResult> results) {
        List<IcebergWriteResult> merged = new ArrayList<>();
        for (IcebergWriteResult result : results) {
            if (!result.deleteFiles().isEmpty()) {
                merged.add(result);
            }
        }
        if (merged.size() < 2) {
            return List.of();
        }
        Schema schema = table.schema();
        Schema keySchema = TypeUtil.select(schema, schema.identifierFieldIds());
        int keySize = keySchema.columns().size();
        // the key first, then every other column: a delete row holds the key and at most one more,
        // the cursor column (MergeRows), so its first other value that is not NULL is the cursor's
        List<Types.NestedField> fields = new ArrayList<>(keySchema.columns());
        for (Types.NestedField field : schema.columns()) {
            if (!schema.identifierFieldIds().contains(field.fieldId())) {
                fields.add(field);
            }
        }
        Schema rowSchema = new Schema(fields);
        // per key: the index of the winning result and its cursor value, and who holds it
        Map<List<Object>, Integer> winner = new HashMap<>();
        Map<List<Object>, Object> best = new HashMap<>();
        Map<List<Object>, List<Integer>> holders = new HashMap<>();
        for (int i = 0; i < merged.size(); i++) {
            for (DeleteFile file : merged.get(i).deletes()) {
                for (Record row : read(table, file, rowSchema)) {
                    List<Object> key = key(row, keySize);
                    Object cursor = null;
                    for (int c = keySize; c < fields.size() && cursor == null; c++) {
                        cursor = row.get(c);
                    }
                    holders.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
                    if (!winner.containsKey(key) || MergeRows.notOlder(cursor, best.get(key))) {
                        winner.put(key, i);
                        best.put(key, cursor);
                    }
                }
            }
        }
        // per losing result, the keys it must give up
        Map<Integer, Set<List<Object>>> lost = new TreeMap<>();
        holders.forEach(
                (key, held) -> {
                    if (held.size() > 1) {
                        for (int i : held) {
                            if (i != winner.get(key)) {
                                lost.computeIfAbsent(i, x -> new HashSet<>()).add(key);
                            }
                        }
                    }
                });
        if (lost.isEmpty()) {
            return List.of();
        }
        List<PositionDelete<Record>> deletes = new ArrayList<>();
        lost.forEach(
                (i, keys) -> {
                    for (DataFile file : merged.get(i).files()) {
                        long pos = 0;
                        for (Record row : read(table, file, keySchema)) {
                            if (keys.contains(key(row, keySize))) {
                                deletes.add(
                                        PositionDelete.<Record>create().set(file.location(), pos));
                            }
                            pos++;
                        }
                    }
                });
        return write(table, deletes);
    }

    private static List<Object> key(Record row, int size) {
        List<Object> key = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            Object v = row.get(i);
            key.add(v instanceof byte[] b ? ByteBuffer.wrap(b) : v);
        }
        return key;
    }

    private static List<Record> read(Table table, ContentFile<?> file, Schema projection) {
        List<Record> rows = new ArrayList<>();
        try (CloseableIterable<Record> records =
                ParquetDataFiles.read(table, file.location(), projection)) {
            for (Record r : records) {
                rows.add(r.copy());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file.location(), e);
        }
        return rows;
    }

    private List<DeleteFile> write(Table table, List<PositionDelete<Record>> deletes) {
        deletes.sort(
                (a, b) -> {
                    int byPath = a.path().toString().compareTo(b.path().toString());
                    return byPath != 0 ? byPath : Long.compare(a.pos(), b.pos());
                });
        OutputFileFactory names =
                OutputFileFactory.builderFor(table, 0, 0)
                        .format(FileFormat.PARQUET)
                        .operationId(
                                Names.snake(settings.pipeline())
                                        + "-conflicts-"
                                        + UUID.randomUUID())
                        .build();
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .dataSchema(table.schema())
                        .deleteFileFormat(FileFormat.PARQUET)
                        .build();
        RollingPositionDeleteWriter<Record> writer =
                new RollingPositionDeleteWriter<>(
                        writers, names, table.io(), settings.targetFileBytes(), table.spec(), null);
        try {
            for (PositionDelete<Record> delete : deletes) {
                writer.write(delete);
            }
        } finally {
            try {
                writer.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return writer.result().deleteFiles();
    }
}
