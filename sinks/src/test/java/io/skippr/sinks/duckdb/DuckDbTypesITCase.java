package io.skippr.sinks.duckdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.SqlSink;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.testing.ScriptedRows;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Skippr type through the appender and back: the loaded rows equal rows written as DuckDB
 * literals of the documented column types, value for value (NaN, infinities, extremes, unicode,
 * control characters, empty text, nulls, bytes, JSON, UUID, dates BC, times, timestamps, decimals
 * wider than 38 digits as exact text), and the rows DuckDB cannot hold are named by the row check.
 */
class DuckDbTypesITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir Path dir;

    static final StreamSchema SCHEMA =
            new StreamSchema(
                    "AllTypes",
                    List.of(
                            Column.of("id", DataType.INT32),
                            Column.of("b", DataType.BOOLEAN),
                            Column.of("i16", DataType.INT16),
                            Column.of("i32", DataType.INT32),
                            Column.of("i64", DataType.INT64),
                            Column.of("f32", DataType.FLOAT32),
                            Column.of("f64", DataType.FLOAT64),
                            Column.of("money", DataType.decimal(12, 2)),
                            Column.of("wide", DataType.decimal(38, 10)),
                            Column.of("any_number", DataType.decimal(0, 0)),
                            Column.of("huge", DataType.decimal(50, 5)),
                            Column.of("s", DataType.STRING),
                            Column.of("j", DataType.JSON),
                            Column.of("u", DataType.UUID),
                            Column.of("bin", DataType.BYTES),
                            Column.of("d", DataType.DATE),
                            Column.of("t", DataType.TIME),
                            Column.of("ts", DataType.TIMESTAMP),
                            Column.of("tz", DataType.TIMESTAMP_TZ)),
                    List.of("id"));

    static byte[] allBytes() {
        byte[] b = new byte[256];
        for (int i = 0; i < 256; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    static final String UNICODE = "ünïcödé 😀 中文 \t\n\r\u0001\u001f\u007f end";

    static final Object[][] ROWS = {
        {
            0, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null
        },
        {
            1,
            true,
            (short) 7,
            42,
            9_000_000_000L,
            1.5f,
            0.1,
            new BigDecimal("1234.5"),
            new BigDecimal("1234567890123456789012345678.0123456789"),
            new BigDecimal("1E-20"),
            new BigDecimal("123456789012345678901234567890123456789012345.12345"),
            "plain",
            "{\"a\":[1,2,{\"b\":null}],\"ü\":\"😀\"}",
            UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
            allBytes(),
            LocalDate.of(2024, 2, 29),
            LocalTime.of(23, 59, 59, 999_999_000),
            LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000),
            Instant.parse("1970-01-01T00:00:00Z")
        },
        {
            2,
            false,
            Short.MIN_VALUE,
            Integer.MIN_VALUE,
            Long.MIN_VALUE,
            Float.NaN,
            Double.NEGATIVE_INFINITY,
            new BigDecimal("-0.01"),
            new BigDecimal("-9999999999999999999999999999.9999999999"),
            new BigDecimal("1.2E+30"),
            null,
            UNICODE,
            "[]",
            new UUID(0, 0),
            new byte[0],
            LocalDate.of(-43, 3, 15),
            LocalTime.MIDNIGHT,
            LocalDateTime.of(1, 1, 1, 0, 0),
            Instant.parse("1900-06-30T12:34:56.000001Z")
        },
        {
            3,
            true,
            Short.MAX_VALUE,
            Integer.MAX_VALUE,
            Long.MAX_VALUE,
            Float.POSITIVE_INFINITY,
            Double.NaN,
            new BigDecimal("0.00"),
            BigDecimal.ZERO,
            new BigDecimal("-123456789012345678901234567890.123456789012345678901234567890"),
            new BigDecimal("-0.00001"),
            "",
            "\"text\"",
            new UUID(-1, -1),
            new byte[] {0, 0, 0},
            LocalDate.of(9999, 12, 31),
            LocalTime.of(0, 0, 0, 1_000),
            LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999),
            Instant.parse("2262-04-11T23:47:16.854775Z")
        }
    };

    static final String EXPECTED =
            "(0, NULL::BOOLEAN, NULL::SMALLINT, NULL::INTEGER, NULL::BIGINT, NULL::FLOAT,"
                    + " NULL::DOUBLE, NULL::DECIMAL(12,2), NULL::DECIMAL(38,10), NULL::VARCHAR,"
                    + " NULL::VARCHAR, NULL::VARCHAR, NULL::JSON, NULL::UUID, NULL::BLOB,"
                    + " NULL::DATE, NULL::TIME, NULL::TIMESTAMP, NULL::TIMESTAMPTZ),"
                    + " (1, true, 7, 42, 9000000000, 1.5, 0.1, 1234.50,"
                    + " 1234567890123456789012345678.0123456789, '0.00000000000000000001',"
                    + " '123456789012345678901234567890123456789012345.12345', 'plain',"
                    + " '{\"a\":[1,2,{\"b\":null}],\"ü\":\"😀\"}',"
                    + " '123e4567-e89b-12d3-a456-426614174000', unhex('"
                    + HexFormat.of().formatHex(allBytes())
                    + "'), '2024-02-29', '23:59:59.999999', '1999-12-31 23:59:59.999999',"
                    + " '1970-01-01 00:00:00+00'),"
                    + " (2, false, -32768, -2147483648, -9223372036854775808, 'NaN',"
                    + " '-Infinity', -0.01, -9999999999999999999999999999.9999999999,"
                    + " '1200000000000000000000000000000', NULL,"
                    + " 'ünïcödé 😀 中文 ' || chr(9) || chr(10) || chr(13) || chr(1) || chr(31)"
                    + " || chr(127) || ' end', '[]', '00000000-0000-0000-0000-000000000000',"
                    + " unhex(''), '0044-03-15 (BC)', '00:00:00', '0001-01-01 00:00:00',"
                    + " '1900-06-30 12:34:56.000001+00'),"
                    + " (3, true, 32767, 2147483647, 9223372036854775807, 'Infinity', 'NaN',"
                    + " 0.00, 0, '-123456789012345678901234567890.123456789012345678901234567890',"
                    + " '-0.00001', '', '\"text\"', 'ffffffff-ffff-ffff-ffff-ffffffffffff',"
                    + " unhex('000000'), '9999-12-31', '00:00:00.000001',"
                    + " '9999-12-31 23:59:59.999999', '2262-04-11 23:47:16.854775+00')";

    static final class AllTypes implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;

        @Override
        public StreamSchema schema(long i) {
            return SCHEMA;
        }

        @Override
        public Object[] values(long i) {
            return ROWS[(int) i].clone();
        }
    }

    @Test
    void everyTypeRoundTripsValueForValue() throws Exception {
        TestDuck duck = new TestDuck(dir, "main");
        StreamExecutionEnvironment env = DuckDbSinkITCase.env(RuntimeExecutionMode.BATCH, 0);
        ScriptedRows.stream(env, ROWS.length, 1_000_000, new AllTypes(), -1, null)
                .sinkTo(new SqlSink(duck.prepare("types", true, WriteMode.APPEND)))
                .uid("types/sink/warehouse");
        env.execute("types");

        assertThat(
                        duck.rows(
                                "SELECT column_name, data_type FROM duckdb_columns()"
                                        + " WHERE table_name = 'all_types' ORDER BY column_index"))
                .extracting(r -> r.get(0) + " " + r.get(1))
                .containsExactly(
                        "id INTEGER",
                        "b BOOLEAN",
                        "i16 SMALLINT",
                        "i32 INTEGER",
                        "i64 BIGINT",
                        "f32 FLOAT",
                        "f64 DOUBLE",
                        "money DECIMAL(12,2)",
                        "wide DECIMAL(38,10)",
                        "any_number VARCHAR",
                        "huge VARCHAR",
                        "s VARCHAR",
                        "j JSON",
                        "u UUID",
                        "bin BLOB",
                        "d DATE",
                        "t TIME",
                        "ts TIMESTAMP",
                        "tz TIMESTAMP WITH TIME ZONE",
                        "_skippr_id VARCHAR",
                        "_skippr_synced_at TIMESTAMP WITH TIME ZONE");
        String loaded =
                "SELECT id, b, i16, i32, i64, f32, f64, money, wide, any_number, huge, s, j, u,"
                        + " bin, d, t, ts, tz FROM main.all_types";
        String expected = "VALUES " + EXPECTED;
        assertThat(duck.one("SELECT count(*) FROM (" + loaded + ") x")).containsExactly("4");
        assertThat(duck.rows("(" + loaded + ") EXCEPT ALL (" + expected + ")"))
                .as("loaded rows that differ from the expected ones")
                .isEmpty();
        assertThat(duck.rows("(" + expected + ") EXCEPT ALL (" + loaded + ")"))
                .as("expected rows not loaded")
                .isEmpty();
        assertThat(
                        duck.rows(
                                "SELECT s, strlen(s), epoch_us(_skippr_synced_at),"
                                        + " length(_skippr_id), isnan(f32) FROM main.all_types"
                                        + " WHERE id = 2"))
                .containsExactly(
                        List.of(
                                UNICODE,
                                String.valueOf(
                                        UNICODE.getBytes(java.nio.charset.StandardCharsets.UTF_8)
                                                .length),
                                String.valueOf(ScriptedRows.SYNCED_AT_MICROS),
                                "32",
                                "true"));
    }

    static final StreamSchema ZEROS =
            new StreamSchema(
                    "zeros",
                    List.of(
                            Column.of("id", DataType.INT32),
                            Column.of("f32", DataType.FLOAT32),
                            Column.of("f64", DataType.FLOAT64)),
                    List.of("id"));

    static final Object[][] ZERO_ROWS = {{1, -0.0f, -0.0}, {2, 0.0f, 0.0}};

    static final class Zeros implements ScriptedRows.Script {
        private static final long serialVersionUID = 1L;

        @Override
        public StreamSchema schema(long i) {
            return ZEROS;
        }

        @Override
        public Object[] values(long i) {
            return ZERO_ROWS[(int) i].clone();
        }
    }

    /**
     * A float -0 keeps its sign, in both write modes: a PostgreSQL {@code real} holding -0 landed
     * as 0.0 (found by the verify command's tests).
     */
    @Test
    void negativeZeroKeepsItsSign() throws Exception {
        for (WriteMode mode : List.of(WriteMode.APPEND, WriteMode.MERGE)) {
            TestDuck duck = new TestDuck(dir.resolve(mode.label()), "main");
            StreamExecutionEnvironment env = DuckDbSinkITCase.env(RuntimeExecutionMode.BATCH, 0);
            ScriptedRows.stream(env, ZERO_ROWS.length, 1_000_000, new Zeros(), -1, null)
                    .sinkTo(new SqlSink(duck.prepare("zeros", true, mode)))
                    .uid("zeros/sink/warehouse");
            env.execute("zeros");

            assertThat(
                            duck.rows(
                                    "SELECT id, signbit(f32), signbit(f64), f32::VARCHAR,"
                                            + " f64::VARCHAR FROM main.zeros ORDER BY id"))
                    .as(mode.label())
                    .containsExactly(
                            List.of("1", "true", "true", "-0.0", "-0.0"),
                            List.of("2", "false", "false", "0.0", "0.0"));
        }
    }

    @Test
    void valuesDuckDbCannotHoldAreNamedByTheRowCheck() {
        assertThat(
                        DuckDbRowCheck.problem(
                                DataType.TIMESTAMP_TZ, Instant.parse("+294276-12-31T23:59:59Z")))
                .contains("outside DuckDB's range");
        assertThat(
                        DuckDbRowCheck.problem(
                                DataType.TIMESTAMP, LocalDateTime.of(294_247, 1, 1, 0, 0)))
                .isNull();
        assertThat(DuckDbRowCheck.problem(DataType.decimal(5, 2), new BigDecimal("1234.5")))
                .contains("does not fit DECIMAL(5,2)");
        assertThat(DuckDbRowCheck.problem(DataType.decimal(5, 2), new BigDecimal("999.994")))
                .isNull();
        assertThat(DuckDbRowCheck.problem(DataType.decimal(0, 0), new BigDecimal("1E+400")))
                .isNull();
        assertThat(DuckDbRowCheck.problem(DataType.JSON, "{\"a\":")).contains("not valid JSON");
        assertThat(DuckDbRowCheck.problem(DataType.JSON, "[1] 2"))
                .contains("text after the JSON value");
        assertThat(DuckDbRowCheck.problem(DataType.JSON, "{\"a\":[1,{\"b\":2}]}")).isNull();
    }
}
