package io.skippr.sinks.databricks;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.files.FileFormat;
import io.skippr.sinks.files.RowFileWriter;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.StagingTable;
import io.skippr.sinks.staged.StagedFormat;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Staged parts as Parquet (snappy), the format Databricks loads fastest and types exactly: the
 * staged set's columns under their target names, then {@code _skippr_deleted}, {@code _skippr_seq},
 * {@code _skippr_id} and {@code _skippr_synced_at}. What Delta has no type for is staged as the
 * text the target column holds: times as {@code HH:MM:SS.ffffff}, UUIDs, JSON, and decimals beyond
 * DECIMAL(38).
 */
final class DatabricksParquet implements StagedFormat {
    private static final long serialVersionUID = 1L;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSSSSS");

    @Override
    public String extension() {
        return ".parquet";
    }

    @Override
    public Part open(StagingTable table, Path file) throws IOException {
        List<Column> source = table.schema().columns();
        List<Column> staged = new ArrayList<>();
        for (int i = 0; i < source.size(); i++) {
            staged.add(Column.of(table.columns().get(i), stagedType(source.get(i).type())));
        }
        staged.add(Column.of(SqlNames.DELETE_ROW, DataType.BOOLEAN));
        staged.add(Column.of(SqlNames.SEQ, DataType.INT64));
        StreamSchema schema = new StreamSchema(table.schema().stream(), staged, List.of());
        Files.deleteIfExists(file); // the writer creates it
        RowFileWriter writer = RowFileWriter.open(FileFormat.PARQUET, "snappy", schema, file);
        return new Part() {
            @Override
            public void write(Row row, long seq) throws IOException {
                Object[] values = row.values();
                Object[] out = new Object[source.size() + 2];
                for (int i = 0; i < source.size(); i++) {
                    Object v = i < values.length ? values[i] : null;
                    out[i] = v == null ? null : value(source.get(i).type(), v);
                }
                out[source.size()] = row.op() == Operation.DELETE;
                out[source.size() + 1] = seq;
                writer.write(row.withValues(out));
            }

            @Override
            public long bytes() {
                return writer.bytesWritten();
            }

            @Override
            public void close() throws IOException {
                writer.close();
            }
        };
    }

    static DataType stagedType(DataType type) {
        return switch (type.kind()) {
            case TIME, UUID, JSON -> DataType.STRING;
            case DECIMAL -> DatabricksDialect.decimal(type) ? type : DataType.STRING;
            default -> type;
        };
    }

    static Object value(DataType type, Object v) {
        return switch (type.kind()) {
            case TIME -> TIME.format((LocalTime) v);
            case UUID -> v.toString();
            case DECIMAL ->
                    DatabricksDialect.decimal(type)
                            ? ((BigDecimal) v).setScale(type.scale())
                            : ((BigDecimal) v).toPlainString();
            default -> v;
        };
    }
}
