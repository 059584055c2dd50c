package io.skippr.sources.localfile;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.EnumLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.Float16LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.StringLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.UUIDLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * How Parquet types map to Skippr's: the column type from a file's footer, and each physical value
 * as the Java class of that type.
 *
 * <table>
 *   <caption>Parquet to Skippr</caption>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td></tr>
 *   <tr><td>INT32; INT(8|16); UINT(8|16); UINT(32)</td><td>INT32; INT16; INT16|INT32; INT64</td></tr>
 *   <tr><td>INT64; UINT(64)</td><td>INT64; DECIMAL(20,0)</td></tr>
 *   <tr><td>FLOAT, FLOAT16; DOUBLE</td><td>FLOAT32; FLOAT64</td></tr>
 *   <tr><td>DECIMAL(p,s) on any physical type</td><td>DECIMAL(p,s)</td></tr>
 *   <tr><td>DATE; TIME</td><td>DATE; TIME</td></tr>
 *   <tr><td>TIMESTAMP(isAdjustedToUTC=true), INT96</td><td>TIMESTAMP_TZ</td></tr>
 *   <tr><td>TIMESTAMP(isAdjustedToUTC=false)</td><td>TIMESTAMP</td></tr>
 *   <tr><td>BINARY STRING, ENUM</td><td>STRING</td></tr>
 *   <tr><td>BINARY JSON</td><td>JSON</td></tr>
 *   <tr><td>FIXED_LEN_BYTE_ARRAY UUID</td><td>UUID</td></tr>
 *   <tr><td>other BINARY / FIXED_LEN_BYTE_ARRAY (BSON, INTERVAL, none)</td><td>BYTES</td></tr>
 *   <tr><td>groups (struct, LIST, MAP) and repeated fields</td><td>JSON (their JSON text)</td></tr>
 * </table>
 */
final class ParquetTypes {
    private static final long JULIAN_EPOCH_DAY = 2_440_588L;

    private ParquetTypes() {}

    /** The columns of a file's schema: one per top-level field. */
    static List<Column> columns(MessageType schema) {
        List<Column> out = new ArrayList<>();
        for (Type field : schema.getFields()) {
            out.add(Column.of(field.getName(), dataType(field)));
        }
        return out;
    }

    static DataType dataType(Type field) {
        if (!field.isPrimitive() || field.isRepetition(Type.Repetition.REPEATED)) {
            return DataType.JSON;
        }
        return primitiveType(field.asPrimitiveType());
    }

    /** The type of one value of a primitive field. */
    static DataType primitiveType(PrimitiveType p) {
        LogicalTypeAnnotation logical = p.getLogicalTypeAnnotation();
        if (logical instanceof DecimalLogicalTypeAnnotation d) {
            return DataType.decimal(d.getPrecision(), d.getScale());
        }
        return switch (p.getPrimitiveTypeName()) {
            case BOOLEAN -> DataType.BOOLEAN;
            case INT32 -> {
                if (logical instanceof DateLogicalTypeAnnotation) {
                    yield DataType.DATE;
                }
                if (logical instanceof TimeLogicalTypeAnnotation) {
                    yield DataType.TIME;
                }
                if (logical instanceof IntLogicalTypeAnnotation i) {
                    if (i.isSigned()) {
                        yield i.getBitWidth() <= 16 ? DataType.INT16 : DataType.INT32;
                    }
                    yield i.getBitWidth() <= 8
                            ? DataType.INT16
                            : i.getBitWidth() <= 16 ? DataType.INT32 : DataType.INT64;
                }
                yield DataType.INT32;
            }
            case INT64 -> {
                if (logical instanceof TimestampLogicalTypeAnnotation t) {
                    yield t.isAdjustedToUTC() ? DataType.TIMESTAMP_TZ : DataType.TIMESTAMP;
                }
                if (logical instanceof TimeLogicalTypeAnnotation) {
                    yield DataType.TIME;
                }
                if (logical instanceof IntLogicalTypeAnnotation i && !i.isSigned()) {
                    yield DataType.decimal(20, 0);
                }
                yield DataType.INT64;
            }
            case INT96 -> DataType.TIMESTAMP_TZ;
            case FLOAT -> DataType.FLOAT32;
            case DOUBLE -> DataType.FLOAT64;
            case BINARY -> {
                if (logical instanceof StringLogicalTypeAnnotation
                        || logical instanceof EnumLogicalTypeAnnotation) {
                    yield DataType.STRING;
                }
                if (logical instanceof JsonLogicalTypeAnnotation) {
                    yield DataType.JSON;
                }
                yield DataType.BYTES;
            }
            case FIXED_LEN_BYTE_ARRAY -> {
                if (logical instanceof UUIDLogicalTypeAnnotation) {
                    yield DataType.UUID;
                }
                if (logical instanceof Float16LogicalTypeAnnotation) {
                    yield DataType.FLOAT32;
                }
                if (logical instanceof StringLogicalTypeAnnotation) {
                    yield DataType.STRING;
                }
                yield DataType.BYTES;
            }
        };
    }

    /** Converts the physical values of one primitive type to Java values. */
    static final class Decoder {
        private final PrimitiveType type;
        private final LogicalTypeAnnotation logical;
        private final DataType dataType;

        Decoder(PrimitiveType type) {
            this.type = type;
            this.logical = type.getLogicalTypeAnnotation();
            this.dataType = primitiveType(type);
        }

        Object ofBoolean(boolean b) {
            return b;
        }

        Object ofInt(int v) {
            return switch (dataType.kind()) {
                case INT16 -> (short) v;
                case INT32 ->
                        logical instanceof IntLogicalTypeAnnotation i && !i.isSigned()
                                ? Integer.valueOf(v & 0xffff)
                                : Integer.valueOf(v);
                case INT64 -> Integer.toUnsignedLong(v);
                case DATE -> LocalDate.ofEpochDay(v);
                case TIME -> LocalTime.ofNanoOfDay(v * 1_000_000L);
                case DECIMAL -> BigDecimal.valueOf(v, dataType.scale());
                default -> v;
            };
        }

        Object ofLong(long v) {
            return switch (dataType.kind()) {
                case TIMESTAMP_TZ ->
                        instant(v, ((TimestampLogicalTypeAnnotation) logical).getUnit());
                case TIMESTAMP -> {
                    Instant i = instant(v, ((TimestampLogicalTypeAnnotation) logical).getUnit());
                    yield LocalDateTime.ofEpochSecond(
                            i.getEpochSecond(), i.getNano(), ZoneOffset.UTC);
                }
                case TIME -> {
                    TimeUnit unit = ((TimeLogicalTypeAnnotation) logical).getUnit();
                    yield LocalTime.ofNanoOfDay(
                            switch (unit) {
                                case MILLIS -> v * 1_000_000L;
                                case MICROS -> v * 1_000L;
                                case NANOS -> v;
                            });
                }
                case DECIMAL ->
                        logical instanceof DecimalLogicalTypeAnnotation
                                ? BigDecimal.valueOf(v, dataType.scale())
                                : new BigDecimal(new BigInteger(Long.toUnsignedString(v)));
                default -> v;
            };
        }

        Object ofFloat(float v) {
            return v;
        }

        Object ofDouble(double v) {
            return v;
        }

        Object ofBinary(Binary v) {
            if (type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT96) {
                ByteBuffer b = v.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                long nanosOfDay = b.getLong();
                long julianDay = b.getInt() & 0xffffffffL;
                return Instant.ofEpochSecond((julianDay - JULIAN_EPOCH_DAY) * 86_400L, nanosOfDay);
            }
            return switch (dataType.kind()) {
                case STRING, JSON -> v.toStringUsingUTF8();
                case DECIMAL -> new BigDecimal(new BigInteger(v.getBytes()), dataType.scale());
                case UUID -> {
                    ByteBuffer b = v.toByteBuffer();
                    yield new UUID(b.getLong(), b.getLong());
                }
                case FLOAT32 ->
                        halfToFloat(v.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN).getShort());
                default -> v.getBytes();
            };
        }

        private static Instant instant(long v, TimeUnit unit) {
            return switch (unit) {
                case MILLIS -> Instant.ofEpochMilli(v);
                case MICROS ->
                        Instant.ofEpochSecond(
                                Math.floorDiv(v, 1_000_000L),
                                Math.floorMod(v, 1_000_000L) * 1_000L);
                case NANOS ->
                        Instant.ofEpochSecond(
                                Math.floorDiv(v, 1_000_000_000L), Math.floorMod(v, 1_000_000_000L));
            };
        }
    }

    /** IEEE 754 half precision to float. */
    static float halfToFloat(short bits) {
        int h = bits & 0xffff;
        int sign = (h >>> 15) << 31;
        int exp = (h >>> 10) & 0x1f;
        int mant = h & 0x3ff;
        if (exp == 0x1f) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        }
        if (exp == 0) {
            float v = mant * 0x1p-24f;
            return sign == 0 ? v : -v;
        }
        return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
    }
}
