package io.skippr.sources.localfile;

import static org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.MICROS;
import static org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.MILLIS;
import static org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.NANOS;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT96;

import io.skippr.core.record.DataType;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Types;

/** Parquet files written with parquet-hadoop's example Group writer, for the tests. */
final class ParquetTestFiles {
    private ParquetTestFiles() {}

    static final UUID ID = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
    static final Instant TS_MILLIS = Instant.parse("2024-05-01T10:00:00.123Z");
    static final LocalDateTime TS_LOCAL = LocalDateTime.parse("2024-05-01T10:00:00.123456");
    static final Instant TS_NANOS = Instant.parse("2024-05-01T10:00:00.123456789Z");
    static final Instant TS_INT96 = Instant.parse("2024-05-01T10:00:00.5Z");
    static final BigDecimal DEC_FIXED = new BigDecimal("-12345678901234567890.0123456789");

    static final MessageType ALL_TYPES =
            Types.buildMessage()
                    .required(BOOLEAN)
                    .named("b")
                    .optional(INT32)
                    .named("i32")
                    .optional(INT32)
                    .as(LogicalTypeAnnotation.intType(16, true))
                    .named("i16")
                    .optional(INT32)
                    .as(LogicalTypeAnnotation.intType(32, false))
                    .named("u32")
                    .optional(INT64)
                    .named("i64")
                    .optional(INT64)
                    .as(LogicalTypeAnnotation.intType(64, false))
                    .named("u64")
                    .optional(FLOAT)
                    .named("f")
                    .optional(DOUBLE)
                    .named("d")
                    .optional(INT32)
                    .as(LogicalTypeAnnotation.decimalType(2, 9))
                    .named("dec32")
                    .optional(INT64)
                    .as(LogicalTypeAnnotation.decimalType(4, 18))
                    .named("dec64")
                    .optional(FIXED_LEN_BYTE_ARRAY)
                    .length(16)
                    .as(LogicalTypeAnnotation.decimalType(10, 38))
                    .named("decfix")
                    .optional(BINARY)
                    .as(LogicalTypeAnnotation.decimalType(3, 20))
                    .named("decbin")
                    .optional(INT32)
                    .as(LogicalTypeAnnotation.dateType())
                    .named("day")
                    .optional(INT32)
                    .as(LogicalTypeAnnotation.timeType(true, MILLIS))
                    .named("tmillis")
                    .optional(INT64)
                    .as(LogicalTypeAnnotation.timeType(false, MICROS))
                    .named("tmicros")
                    .optional(INT64)
                    .as(LogicalTypeAnnotation.timestampType(true, MILLIS))
                    .named("ts_utc_millis")
                    .optional(INT64)
                    .as(LogicalTypeAnnotation.timestampType(false, MICROS))
                    .named("ts_local_micros")
                    .optional(INT64)
                    .as(LogicalTypeAnnotation.timestampType(true, NANOS))
                    .named("ts_utc_nanos")
                    .optional(INT96)
                    .named("legacy_ts")
                    .optional(BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("s")
                    .optional(BINARY)
                    .as(LogicalTypeAnnotation.enumType())
                    .named("e")
                    .optional(BINARY)
                    .as(LogicalTypeAnnotation.jsonType())
                    .named("j")
                    .optional(FIXED_LEN_BYTE_ARRAY)
                    .length(16)
                    .as(LogicalTypeAnnotation.uuidType())
                    .named("id")
                    .optional(BINARY)
                    .named("raw")
                    .optional(FIXED_LEN_BYTE_ARRAY)
                    .length(4)
                    .named("fixed4")
                    .optional(FIXED_LEN_BYTE_ARRAY)
                    .length(2)
                    .as(LogicalTypeAnnotation.float16Type())
                    .named("half")
                    .optionalGroup()
                    .as(LogicalTypeAnnotation.listType())
                    .repeatedGroup()
                    .optional(BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("element")
                    .named("list")
                    .named("tags")
                    .optionalGroup()
                    .as(LogicalTypeAnnotation.mapType())
                    .repeatedGroup()
                    .required(BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("key")
                    .optional(INT32)
                    .named("value")
                    .named("key_value")
                    .named("attrs")
                    .optionalGroup()
                    .optional(BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("city")
                    .optional(INT32)
                    .named("zip")
                    .named("address")
                    .repeated(INT32)
                    .named("scores")
                    .named("all_types");

    /** The expected column types of {@link #ALL_TYPES}, in order. */
    static Map<String, DataType> allTypesColumns() {
        Map<String, DataType> m = new LinkedHashMap<>();
        m.put("b", DataType.BOOLEAN);
        m.put("i32", DataType.INT32);
        m.put("i16", DataType.INT16);
        m.put("u32", DataType.INT64);
        m.put("i64", DataType.INT64);
        m.put("u64", DataType.decimal(20, 0));
        m.put("f", DataType.FLOAT32);
        m.put("d", DataType.FLOAT64);
        m.put("dec32", DataType.decimal(9, 2));
        m.put("dec64", DataType.decimal(18, 4));
        m.put("decfix", DataType.decimal(38, 10));
        m.put("decbin", DataType.decimal(20, 3));
        m.put("day", DataType.DATE);
        m.put("tmillis", DataType.TIME);
        m.put("tmicros", DataType.TIME);
        m.put("ts_utc_millis", DataType.TIMESTAMP_TZ);
        m.put("ts_local_micros", DataType.TIMESTAMP);
        m.put("ts_utc_nanos", DataType.TIMESTAMP_TZ);
        m.put("legacy_ts", DataType.TIMESTAMP_TZ);
        m.put("s", DataType.STRING);
        m.put("e", DataType.STRING);
        m.put("j", DataType.JSON);
        m.put("id", DataType.UUID);
        m.put("raw", DataType.BYTES);
        m.put("fixed4", DataType.BYTES);
        m.put("half", DataType.FLOAT32);
        m.put("tags", DataType.JSON);
        m.put("attrs", DataType.JSON);
        m.put("address", DataType.JSON);
        m.put("scores", DataType.JSON);
        return m;
    }

    /** The values of the first row of {@link #writeAllTypes}. */
    static Object[] allTypesRow() {
        return new Object[] {
            true,
            7,
            (short) -5,
            4_000_000_000L,
            1L << 40,
            new BigDecimal("18446744073709551615"),
            1.5f,
            2.25,
            new BigDecimal("123.45"),
            new BigDecimal("12345.6789"),
            DEC_FIXED,
            new BigDecimal("-1234.567"),
            LocalDate.of(2024, 2, 29),
            LocalTime.parse("01:02:03.004"),
            LocalTime.parse("01:02:03.004005"),
            TS_MILLIS,
            TS_LOCAL,
            TS_NANOS,
            TS_INT96,
            "héllo",
            "RED",
            "{\"k\":1}",
            ID,
            new byte[] {1, 2, 3},
            new byte[] {9, 8, 7, 6},
            1.5f,
            "[\"a\",\"b\"]",
            "{\"x\":1,\"y\":null}",
            "{\"city\":\"Oslo\",\"zip\":150}",
            "[1,2]"
        };
    }

    /** The second row: only the required field set. */
    static Object[] allTypesEmptyRow() {
        Object[] row = new Object[30];
        row[0] = false;
        row[29] = "[]";
        return row;
    }

    static void writeAllTypes(Path file) throws IOException {
        SimpleGroupFactory groups = new SimpleGroupFactory(ALL_TYPES);
        try (ParquetWriter<Group> writer = writer(file, ALL_TYPES, CompressionCodecName.SNAPPY)) {
            Group g = groups.newGroup();
            g.add("b", true);
            g.add("i32", 7);
            g.add("i16", -5);
            g.add("u32", (int) 4_000_000_000L);
            g.add("i64", 1L << 40);
            g.add("u64", -1L);
            g.add("f", 1.5f);
            g.add("d", 2.25);
            g.add("dec32", 12345);
            g.add("dec64", 123456789L);
            g.add("decfix", Binary.fromConstantByteArray(pad(DEC_FIXED.unscaledValue(), 16)));
            g.add(
                    "decbin",
                    Binary.fromConstantByteArray(BigInteger.valueOf(-1234567).toByteArray()));
            g.add("day", (int) LocalDate.of(2024, 2, 29).toEpochDay());
            g.add("tmillis", 3_723_004);
            g.add("tmicros", 3_723_004_005L);
            g.add("ts_utc_millis", TS_MILLIS.toEpochMilli());
            g.add(
                    "ts_local_micros",
                    ChronoUnit.MICROS.between(Instant.EPOCH, TS_LOCAL.toInstant(ZoneOffset.UTC)));
            g.add("ts_utc_nanos", ChronoUnit.NANOS.between(Instant.EPOCH, TS_NANOS));
            LocalDateTime int96 = LocalDateTime.ofInstant(TS_INT96, ZoneOffset.UTC);
            g.add(
                    "legacy_ts",
                    new NanoTime(
                            (int) (int96.toLocalDate().toEpochDay() + 2_440_588L),
                            int96.toLocalTime().toNanoOfDay()));
            g.add("s", "héllo");
            g.add("e", "RED");
            g.add("j", "{\"k\":1}");
            ByteBuffer uuid = ByteBuffer.allocate(16);
            uuid.putLong(ID.getMostSignificantBits()).putLong(ID.getLeastSignificantBits());
            g.add("id", Binary.fromConstantByteArray(uuid.array()));
            g.add("raw", Binary.fromConstantByteArray(new byte[] {1, 2, 3}));
            g.add("fixed4", Binary.fromConstantByteArray(new byte[] {9, 8, 7, 6}));
            g.add("half", Binary.fromConstantByteArray(new byte[] {0x00, 0x3E}));
            Group tags = g.addGroup("tags");
            tags.addGroup("list").append("element", "a");
            tags.addGroup("list").append("element", "b");
            Group attrs = g.addGroup("attrs");
            attrs.addGroup("key_value").append("key", "x").append("value", 1);
            attrs.addGroup("key_value").append("key", "y");
            g.addGroup("address").append("city", "Oslo").append("zip", 150);
            g.add("scores", 1);
            g.add("scores", 2);
            writer.write(g);
            Group empty = groups.newGroup();
            empty.add("b", false);
            writer.write(empty);
        }
    }

    /** {@code rows} rows of (id INT64, name STRING), in small row groups. */
    static void writeNumbers(Path file, long firstId, int rows) throws IOException {
        MessageType schema =
                Types.buildMessage()
                        .required(INT64)
                        .named("id")
                        .optional(BINARY)
                        .as(LogicalTypeAnnotation.stringType())
                        .named("name")
                        .named("numbers");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer =
                ExampleParquetWriter.builder(new LocalOutputFile(file))
                        .withType(schema)
                        .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                        .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                        .withRowGroupSize(16 * 1024L)
                        .withPageSize(1024)
                        .build()) {
            for (int i = 0; i < rows; i++) {
                writer.write(
                        groups.newGroup()
                                .append("id", firstId + i)
                                .append("name", "n" + (firstId + i)));
            }
        }
    }

    private static ParquetWriter<Group> writer(
            Path file, MessageType schema, CompressionCodecName codec) throws IOException {
        return ExampleParquetWriter.builder(new LocalOutputFile(file))
                .withType(schema)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                .withCompressionCodec(codec)
                .build();
    }

    private static byte[] pad(BigInteger unscaled, int length) {
        byte[] raw = unscaled.toByteArray();
        byte[] out = new byte[length];
        Arrays.fill(out, unscaled.signum() < 0 ? (byte) 0xff : 0);
        System.arraycopy(raw, 0, out, length - raw.length, raw.length);
        return out;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
