package io.skippr.sinks.glue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The Glue table and partition definitions of Parquet files in S3, as Athena reads them: external
 * tables with Hive's Parquet SerDe and input/output formats, partitioned Hive-style.
 */
final class GlueTables {
    static final String TABLE_TYPE = "EXTERNAL_TABLE";
    static final String SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
    static final String INPUT_FORMAT =
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
    static final String OUTPUT_FORMAT =
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";

    private GlueTables() {}

    /** A new table of these columns over the files under {@code location}. */
    static TableInput newTable(
            String name, String location, List<Column> columns, List<String> partitionKeys) {
        List<Column> keys = new ArrayList<>();
        for (String key : partitionKeys) {
            keys.add(Column.builder().name(key).type("string").build());
        }
        return TableInput.builder()
                .name(name)
                .description("Parquet files written by Skippr")
                .tableType(TABLE_TYPE)
                .parameters(Map.of("classification", "parquet", "EXTERNAL", "TRUE"))
                .partitionKeys(keys)
                .storageDescriptor(
                        StorageDescriptor.builder()
                                .columns(columns)
                                .location(location)
                                .inputFormat(INPUT_FORMAT)
                                .outputFormat(OUTPUT_FORMAT)
                                .compressed(false)
                                .storedAsSubDirectories(false)
                                .serdeInfo(
                                        SerDeInfo.builder()
                                                .serializationLibrary(SERDE)
                                                .parameters(Map.of("serialization.format", "1"))
                                                .build())
                                .build())
                .build();
    }

    /** {@code table} as it is, with {@code added} columns after its own. */
    static TableInput withColumns(Table table, List<Column> added) {
        List<Column> columns = new ArrayList<>(table.storageDescriptor().columns());
        columns.addAll(added);
        return TableInput.builder()
                .name(table.name())
                .description(table.description())
                .owner(table.owner())
                .lastAccessTime(table.lastAccessTime())
                .lastAnalyzedTime(table.lastAnalyzedTime())
                .retention(table.retention())
                .storageDescriptor(table.storageDescriptor().toBuilder().columns(columns).build())
                .partitionKeys(table.partitionKeys())
                .viewOriginalText(table.viewOriginalText())
                .viewExpandedText(table.viewExpandedText())
                .tableType(table.tableType())
                .parameters(table.parameters())
                .targetTable(table.targetTable())
                .build();
    }

    /** A partition of {@code table} with these values, its files under {@code location}. */
    static PartitionInput partition(Table table, List<String> values, String location) {
        return PartitionInput.builder()
                .values(values)
                .storageDescriptor(table.storageDescriptor().toBuilder().location(location).build())
                .build();
    }
}
