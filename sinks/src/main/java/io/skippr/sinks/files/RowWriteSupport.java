package io.skippr.sinks.files;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/** Writes {@link Row}s straight into Parquet columns, without an intermediate object model. */
final class RowWriteSupport extends WriteSupport<Row> {
    private final StreamSchema schema;
    private final MessageType parquetSchema;
    private RecordConsumer consumer;

    RowWriteSupport(StreamSchema schema) {
        this.schema = schema;
        this.parquetSchema = ParquetSchemas.of(schema);
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return new WriteContext(parquetSchema, Map.of("skippr.stream", schema.stream()));
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
    }

    @Override
    public void write(Row row) {
        consumer.startMessage();
        int n = schema.size();
        for (int i = 0; i < n; i++) {
            Object value = i < row.values().length ? row.value(i) : null;
            if (value != null) {
                String name = schema.columns().get(i).name();
                consumer.startField(name, i);
                writeValue(schema.columns().get(i).type(), value);
                consumer.endField(name, i);
            }
        }
        if (row.id() != null) {
            consumer.startField(JsonText.ID, n);
            consumer.addBinary(Binary.fromString(row.id()));
            consumer.endField(JsonText.ID, n);
        }
        consumer.startField(JsonText.SYNCED_AT, n + 1);
        consumer.addLong(row.syncedAtMicros());
        consumer.endField(JsonText.SYNCED_AT, n + 1);
        consumer.endMessage();
    }

    private void writeValue(DataType type, Object value) {
        switch (type.kind()) {
            case BOOLEAN -> consumer.addBoolean((Boolean) value);
            case INT16 -> consumer.addInteger(((Short) value).intValue());
            case INT32 -> consumer.addInteger((Integer) value);
            case INT64 -> consumer.addLong((Long) value);
            case FLOAT32 -> consumer.addFloat((Float) value);
            case FLOAT64 -> consumer.addDouble((Double) value);
            case DECIMAL -> {
                BigDecimal d = (BigDecimal) value;
                if (ParquetSchemas.decimalAsBinary(type)) {
                    consumer.addBinary(
                            Binary.fromConstantByteArray(
                                    d.setScale(type.scale()).unscaledValue().toByteArray()));
                } else {
                    consumer.addBinary(Binary.fromString(d.toPlainString()));
                }
            }
            case STRING, JSON -> consumer.addBinary(Binary.fromString((String) value));
            case UUID -> {
                UUID u = (UUID) value;
                ByteBuffer b = ByteBuffer.allocate(16);
                b.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
                consumer.addBinary(Binary.fromConstantByteArray(b.array()));
            }
            case BYTES -> consumer.addBinary(Binary.fromConstantByteArray((byte[]) value));
            case DATE -> consumer.addInteger((int) ((LocalDate) value).toEpochDay());
            case TIME -> consumer.addLong(((LocalTime) value).toNanoOfDay() / 1000);
            case TIMESTAMP ->
                    consumer.addLong(micros(((LocalDateTime) value).toInstant(ZoneOffset.UTC)));
            case TIMESTAMP_TZ -> consumer.addLong(micros((Instant) value));
        }
    }

    private static long micros(Instant t) {
        return Math.addExact(
                Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1000);
    }
}
