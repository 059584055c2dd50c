package io.skippr.sinks.synapse;

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
import java.util.ArrayList;
import java.util.List;

/**
 * Staged parts as Parquet (snappy), which {@code COPY INTO} reads typed: the staged set's columns
 * under their target names, then {@code _skippr_deleted}, {@code _skippr_seq}, {@code _skippr_id}
 * and {@code _skippr_synced_at} ({@link SynapseCopy} lists the staging table's columns in this
 * order). UUIDs, JSON and decimals beyond DECIMAL(38) are staged as the text their column holds;
 * NaN and infinities, which Synapse's FLOAT and REAL cannot hold, as NULL
 * (docs/connectors/synapse.md).
 */
final class SynapseParquet implements StagedFormat {
    private static final long serialVersionUID = 1L;

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
            case UUID, JSON -> DataType.STRING;
            case DECIMAL -> SynapseDialect.decimal(type) ? type : DataType.STRING;
            default -> type;
        };
    }

    static Object value(DataType type, Object v) {
        return switch (type.kind()) {
            case FLOAT32 -> Float.isFinite((Float) v) ? v : null;
            case FLOAT64 -> Double.isFinite((Double) v) ? v : null;
            case UUID -> v.toString();
            case DECIMAL ->
                    SynapseDialect.decimal(type)
                            ? ((BigDecimal) v).setScale(type.scale())
                            : ((BigDecimal) v).toPlainString();
            default -> v;
        };
    }
}
