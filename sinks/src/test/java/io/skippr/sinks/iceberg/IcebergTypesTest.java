package io.skippr.sinks.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.DataType.Kind;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The documented type mapping (docs/connectors/skipprlake.md) and what cannot be stored. */
class IcebergTypesTest {
    @Test
    void everyKindHasItsDocumentedIcebergType() {
        Map<Kind, Type> expected = new EnumMap<>(Kind.class);
        expected.put(Kind.BOOLEAN, Types.BooleanType.get());
        expected.put(Kind.INT16, Types.IntegerType.get());
        expected.put(Kind.INT32, Types.IntegerType.get());
        expected.put(Kind.INT64, Types.LongType.get());
        expected.put(Kind.FLOAT32, Types.FloatType.get());
        expected.put(Kind.FLOAT64, Types.DoubleType.get());
        expected.put(Kind.DECIMAL, Types.StringType.get()); // unbounded: exact text
        expected.put(Kind.STRING, Types.StringType.get());
        expected.put(Kind.JSON, Types.StringType.get());
        expected.put(Kind.UUID, Types.UUIDType.get());
        expected.put(Kind.BYTES, Types.BinaryType.get());
        expected.put(Kind.DATE, Types.DateType.get());
        expected.put(Kind.TIME, Types.TimeType.get());
        expected.put(Kind.TIMESTAMP, Types.TimestampType.withoutZone());
        expected.put(Kind.TIMESTAMP_TZ, Types.TimestampType.withZone());
        for (Kind kind : Kind.values()) {
            assertThat(IcebergTypes.of(DataType.of(kind)))
                    .as(kind.name())
                    .isEqualTo(expected.get(kind));
        }
        assertThat(IcebergTypes.of(DataType.decimal(20, 6))).isEqualTo(Types.DecimalType.of(20, 6));
        assertThat(IcebergTypes.of(DataType.decimal(50, 10)))
                .isEqualTo(Types.DecimalType.of(38, 10));
    }

    private static String problem(DataType type, Object value) {
        StreamSchema schema = new StreamSchema("s", List.of(Column.of("c", type)), List.of());
        return new IcebergLimits()
                .problem(schema, Row.insert("s", schema.version(), new Object[] {value}, "1"));
    }

    @Test
    void valuesBeyondIcebergsRangeAreNamed() {
        assertThat(problem(DataType.decimal(20, 6), new BigDecimal("99999999999999.999999")))
                .isNull();
        assertThat(problem(DataType.decimal(50, 10), new BigDecimal("1" + "0".repeat(30))))
                .isEqualTo(
                        "column c: 1"
                                + "0".repeat(30)
                                + " has more digits than its decimal(38, 10) column holds"
                                + " (Iceberg decimals hold at most 38 digits)");
        assertThat(problem(DataType.decimal(10, 2), new BigDecimal("1.125")))
                .isEqualTo(
                        "column c: 1.125 has more than 2 decimal places, the scale of its"
                                + " decimal(10, 2) column");
        assertThat(problem(DataType.decimal(0, 0), new BigDecimal("1" + "0".repeat(60))))
                .as("unbounded decimals are text")
                .isNull();
        assertThat(problem(DataType.TIMESTAMP_TZ, Instant.parse("+294276-01-01T00:00:00Z")))
                .isEqualTo(
                        "column c: +294276-01-01T00:00:00Z is outside the range of Iceberg"
                                + " timestamps (microseconds since 1970 in 64 bits)");
        assertThat(problem(DataType.TIMESTAMP, LocalDateTime.parse("2024-05-01T10:00:00")))
                .isNull();
    }

    @Test
    void valuesTakeTheirColumnsJavaClass() {
        assertThat(IcebergTypes.value((short) 7, Types.IntegerType.get())).isEqualTo(7);
        assertThat(IcebergTypes.value(7, Types.LongType.get())).isEqualTo(7L);
        assertThat(IcebergTypes.value(new BigDecimal("1.5"), Types.DecimalType.of(10, 3)))
                .isEqualTo(new BigDecimal("1.500"));
        assertThat(IcebergTypes.value(new BigDecimal("1E+3"), Types.StringType.get()))
                .isEqualTo("1000");
        assertThat(IcebergTypes.value(Float.NaN, Types.FloatType.get())).isEqualTo(Float.NaN);
    }
}
