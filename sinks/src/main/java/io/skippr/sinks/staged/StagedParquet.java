package io.skippr.sinks.staged;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.sinks.sql.SqlNames;
import io.skippr.sinks.sql.StagingTable;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * A staged row as one Parquet record (snappy), as a warehouse loads it by column name: the staging
 * table's columns under their target names, then {@code _skippr_id}, {@code _skippr_synced_at},
 * {@code _skippr_deleted} and {@code _skippr_seq}. A null is an absent value; decimals of up to 38
 * digits are Parquet decimals, longer or unbounded ones their exact text (the warehouse stores
 * those as text); UUIDs and JSON are text; times and timestamps are microseconds, timestamps with
 * zone adjusted to UTC.
 */
public final class StagedParquet {
    static final int MAX_DECIMAL_PRECISION = 38;

    private StagedParquet() {}

    /** Whether a decimal of {@code type} is staged as a Parquet decimal (else as its text). */
    public static boolean decimal(DataType type) {
        return type.precision() > 0
                && type.precision() <= MAX_DECIMAL_PRECISION
                && type.scale() >= 0
                && type.scale() <= type.precision();
    }

    static StagedFormat.Part part(StagingTable table, Path file) throws IOException {
        ParquetWriter<Staged> writer =
                new Builder(file, table)
                        .withCompressionCodec(CompressionCodecName.SNAPPY)
                        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                        .withConf(new Configuration(false))
                        .build();
        return new StagedFormat.Part() {
            @Override
            public void write(Row row, long seq) throws IOException {
                writer.write(new Staged(row, seq));
            }

            @Override
            public long bytes() {
                return writer.getDataSize();
            }

            @Override
            public void close() throws IOException {
                writer.close();
            }
        };
    }

    /** A row and its position in the set. */
    record Staged(Row row, long seq) {}

    static MessageType schema(StagingTable table) {
        List<Type> fields = new ArrayList<>();
        for (int i = 0; i < table.columns().size(); i++) {
            fields.add(field(table.columns().get(i), table.schema().columns().get(i).type()));
        }
        fields.add(text(SqlNames.ID));
        fields.add(
                Types.optional(PrimitiveTypeName.INT64)
                        .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                        .named(SqlNames.SYNCED_AT));
        fields.add(Types.optional(PrimitiveTypeName.BOOLEAN).named(SqlNames.DELETE_ROW));
        fields.add(Types.optional(PrimitiveTypeName.INT64).named(SqlNames.SEQ));
        return new MessageType("skippr_staged", fields);
    }

    private static Type field(String name, DataType type) {
        return switch (type.kind()) {
            case BOOLEAN -> Types.optional(PrimitiveTypeName.BOOLEAN).named(name);
            case INT16, INT32 -> Types.optional(PrimitiveTypeName.INT32).named(name);
            case INT64 -> Types.optional(PrimitiveTypeName.INT64).named(name);
            case FLOAT32 -> Types.optional(PrimitiveTypeName.FLOAT).named(name);
            case FLOAT64 -> Types.optional(PrimitiveTypeName.DOUBLE).named(name);
            case DECIMAL ->
                    decimal(type)
                            ? Types.optional(PrimitiveTypeName.BINARY)
                                    .as(
                                            LogicalTypeAnnotation.decimalType(
                                                    type.scale(), type.precision()))
                                    .named(name)
                            : text(name);
            case STRING, JSON, UUID -> text(name);
            case BYTES -> Types.optional(PrimitiveTypeName.BINARY).named(name);
            case DATE ->
                    Types.optional(PrimitiveTypeName.INT32)
                            .as(LogicalTypeAnnotation.dateType())
                            .named(name);
            case TIME ->
                    Types.optional(PrimitiveTypeName.INT64)
                            .as(LogicalTypeAnnotation.timeType(false, TimeUnit.MICROS))
                            .named(name);
            case TIMESTAMP ->
                    Types.optional(PrimitiveTypeName.INT64)
                            .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.MICROS))
                            .named(name);
            case TIMESTAMP_TZ ->
                    Types.optional(PrimitiveTypeName.INT64)
                            .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                            .named(name);
        };
    }

    private static Type text(String name) {
        return Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(name);
    }

    private static final class Builder extends ParquetWriter.Builder<Staged, Builder> {
        private final StagingTable table;

        Builder(Path path, StagingTable table) {
            super(new LocalOutputFile(path));
            this.table = table;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<Staged> getWriteSupport(Configuration conf) {
            return new Support(table);
        }
    }

    /** Writes staged rows straight into Parquet columns. */
    private static final class Support extends WriteSupport<Staged> {
        private final StagingTable table;
        private final MessageType schema;
        private RecordConsumer out;

        Support(StagingTable table) {
            this.table = table;
            this.schema = schema(table);
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, Map.of());
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.out = recordConsumer;
        }

        @Override
        public void write(Staged staged) {
            Row row = staged.row();
            out.startMessage();
            int n = table.columns().size();
            Object[] values = row.values();
            for (int i = 0; i < n; i++) {
                Object value = i < values.length ? values[i] : null;
                if (value != null) {
                    String name = table.columns().get(i);
                    out.startField(name, i);
                    value(table.schema().columns().get(i).type(), value);
                    out.endField(name, i);
                }
            }
            if (row.id() != null) {
                field(SqlNames.ID, n, () -> out.addBinary(Binary.fromString(row.id())));
            }
            field(SqlNames.SYNCED_AT, n + 1, () -> out.addLong(row.syncedAtMicros()));
            field(SqlNames.DELETE_ROW, n + 2, () -> out.addBoolean(row.op() == Operation.DELETE));
            field(SqlNames.SEQ, n + 3, () -> out.addLong(staged.seq()));
            out.endMessage();
        }

        private void field(String name, int index, Runnable value) {
            out.startField(name, index);
            value.run();
            out.endField(name, index);
        }

        private void value(DataType type, Object value) {
            switch (type.kind()) {
                case BOOLEAN -> out.addBoolean((Boolean) value);
                case INT16 -> out.addInteger(((Short) value).intValue());
                case INT32 -> out.addInteger((Integer) value);
                case INT64 -> out.addLong((Long) value);
                case FLOAT32 -> out.addFloat((Float) value);
                case FLOAT64 -> out.addDouble((Double) value);
                case DECIMAL -> {
                    BigDecimal d = (BigDecimal) value;
                    out.addBinary(
                            decimal(type)
                                    ? Binary.fromConstantByteArray(
                                            d.setScale(type.scale(), RoundingMode.HALF_UP)
                                                    .unscaledValue()
                                                    .toByteArray())
                                    : Binary.fromString(d.toPlainString()));
                }
                case STRING, JSON -> out.addBinary(Binary.fromString((String) value));
                case UUID -> out.addBinary(Binary.fromString(value.toString()));
                case BYTES -> out.addBinary(Binary.fromConstantByteArray((byte[]) value));
                case DATE -> out.addInteger((int) ((LocalDate) value).toEpochDay());
                case TIME -> out.addLong(((LocalTime) value).toNanoOfDay() / 1000);
                case TIMESTAMP ->
                        out.addLong(micros(((LocalDateTime) value).toInstant(ZoneOffset.UTC)));
                case TIMESTAMP_TZ -> out.addLong(micros((Instant) value));
            }
        }

        private static long micros(Instant t) {
            return Math.addExact(
                    Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
        }
    }
}
