package io.skippr.sinks.iceberg;

import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Where the Iceberg sinks get their data file writers: Parquet files of a table's current schema,
 * rolled at a target size, named by Iceberg from the writing task and an operation id that makes
 * them unique (the writer, the compactor and the removal of a data run each name theirs); and, for
 * write_mode merge, equality delete files on a key.
 */
final class ParquetDataFiles {
    private ParquetDataFiles() {}

    static RollingDataWriter<Record> writer(
            Table table, int subtask, int attempt, String operation, long targetFileBytes) {
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .dataSchema(table.schema())
                        .dataFileFormat(FileFormat.PARQUET)
                        .build();
        return new RollingDataWriter<>(
                writers,
                names(table, subtask, attempt, operation),
                table.io(),
                targetFileBytes,
                table.spec(),
                null);
    }

    /**
     * Equality delete files on the first {@code keySize} columns of {@code rows} (a projection of
     * the table's schema; the columns after the key are carried, not compared): each record written
     * holds a key's values and deletes the rows of earlier commits that hold them.
     */
    static RollingEqualityDeleteWriter<Record> equalityDeletes(
            Table table,
            int keySize,
            Schema rows,
            int subtask,
            int attempt,
            String operation,
            long bytes) {
        int[] ids =
                rows.columns().stream()
                        .limit(keySize)
                        .mapToInt(Types.NestedField::fieldId)
                        .toArray();
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .dataSchema(table.schema())
                        .dataFileFormat(FileFormat.PARQUET)
                        .deleteFileFormat(FileFormat.PARQUET)
                        .equalityFieldIds(ids)
                        .equalityDeleteRowSchema(rows)
                        .build();
        return new RollingEqualityDeleteWriter<>(
                writers,
                names(table, subtask, attempt, operation),
                table.io(),
                bytes,
                table.spec(),
                null);
    }

    /** The rows of a data or delete file of {@code table}, read as {@code projection}. */
    static CloseableIterable<Record> read(Table table, String location, Schema projection) {
        return Parquet.read(table.io().newInputFile(location))
                .project(projection)
                .createReaderFunc(
                        fileSchema -> GenericParquetReaders.buildReader(projection, fileSchema))
                .build();
    }

    private static OutputFileFactory names(
            Table table, int subtask, int attempt, String operation) {
        return OutputFileFactory.builderFor(table, subtask, attempt)
                .format(FileFormat.PARQUET)
                .operationId(operation)
                .build();
    }
}
