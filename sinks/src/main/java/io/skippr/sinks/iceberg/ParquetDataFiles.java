package io.skippr.sinks.iceberg;

import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * Where the Iceberg sinks get their data file writers: Parquet files of a table's current schema,
 * rolled at a target size, named by Iceberg from the writing task and an operation id that makes
 * them unique (the writer, the compactor and the removal of a data run each name theirs).
 */
final class ParquetDataFiles {
    private ParquetDataFiles() {}

    static RollingDataWriter<Record> writer(
            Table table, int subtask, int attempt, String operation, long targetFileBytes) {
        OutputFileFactory names =
                OutputFileFactory.builderFor(table, subtask, attempt)
                        .format(FileFormat.PARQUET)
                        .operationId(operation)
                        .build();
        GenericFileWriterFactory writers =
                new GenericFileWriterFactory.Builder(table)
                        .dataSchema(table.schema())
                        .dataFileFormat(FileFormat.PARQUET)
                        .build();
        return new RollingDataWriter<>(
                writers, names, table.io(), targetFileBytes, table.spec(), null);
    }
}
