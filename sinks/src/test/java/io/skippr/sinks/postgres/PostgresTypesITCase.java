package io.skippr.sinks.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import io.skippr.sinks.sql.SqlSink;
import io.skippr.sinks.sql.WriteMode;
import io.skippr.sinks.testing.ScriptedRows;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.UUID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Every Skippr type through binary COPY and back: the loaded rows equal rows written as SQL
 * literals of the documented column types, value for value (NaN, infinities, extremes, unicode,
 * control characters, empty text, nulls, bytes, JSON, uuid, dates BC, times, timestamps).
 */
class PostgresTypesITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

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
                            Column.of("s", DataType.STRING),
                            Column.of("j", DataType.JSON),
                            Column.of("u", DataType.UUID),
                            Column.of("bin", DataType.BYTES),
                            Column.of("d", DataType.DATE),
                            Column.of("t", DataType.TIME),
                            Column.of("ts", DataType.TIMESTAMP),
                            Column.of("tz", DataType.TIMESTAMP_TZ)),
                    List.of("id"));

    private static byte[] allBytes() {
        byte[] b = new byte[256];
        for (int i = 0; i < 256; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    /** The rows, and the same rows as SQL literals. */
    static final Object[][] ROWS = {
        {
            0, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null
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
            "ünïcödé 😀 中文 \t\n\r\u0001\u001f\u007f end",
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
            "(0, NULL::boolean, NULL::smallint, NULL::integer, NULL::bigint, NULL::real,"
                    + " NULL::double precision, NULL::numeric(12,2), NULL::numeric(38,10),"
                    + " NULL::numeric, NULL::text, NULL::jsonb, NULL::uuid, NULL::bytea,"
                    + " NULL::date, NULL::time, NULL::timestamp, NULL::timestamptz),"
                    + " (1, true, 7, 42, 9000000000, 1.5, 0.1, 1234.50,"
                    + " 1234567890123456789012345678.0123456789, 0.00000000000000000001, 'plain',"
                    + " '{\"a\":[1,2,{\"b\":null}],\"ü\":\"😀\"}', '123e4567-e89b-12d3-a456-426614174000',"
                    + " decode((SELECT string_agg(lpad(to_hex(i), 2, '0'), '') FROM"
                    + " generate_series(0, 255) i), 'hex'), '2024-02-29', '23:59:59.999999',"
                    + " '1999-12-31 23:59:59.999999', '1970-01-01 00:00:00+00'),"
                    + " (2, false, -32768, -2147483648, -9223372036854775808, 'NaN',"
                    + " '-Infinity', -0.01, -9999999999999999999999999999.9999999999,"
                    + " 1200000000000000000000000000000,"
                    + " E'ünïcödé 😀 中文 \\t\\n\\r\\x01\\x1f\\x7f end', '[]',"
                    + " '00000000-0000-0000-0000-000000000000', ''::bytea, '0044-03-15 BC',"
                    + " '00:00:00', '0001-01-01 00:00:00', '1900-06-30 12:34:56.000001+00'),"
                    + " (3, true, 32767, 2147483647, 9223372036854775807, 'Infinity', 'NaN',"
                    + " 0.00, 0, -123456789012345678901234567890.123456789012345678901234567890,"
                    + " '', '\"text\"', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '\\x000000',"
                    + " '9999-12-31', '00:00:00.000001', '9999-12-31 23:59:59.999999',"
                    + " '2262-04-11 23:47:16.854775+00')";

    /** The script that sends {@link #ROWS}. */
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

    private TestPg pg;

    @BeforeEach
    void schema() {
        pg = new TestPg();
    }

    @AfterEach
    void drop() throws Exception {
        pg.close();
    }

    @Test
    void everyTypeRoundTripsValueForValue() throws Exception {
        StreamExecutionEnvironment env = PostgresSinkITCase.env(RuntimeExecutionMode.BATCH, 0);
        ScriptedRows.stream(env, ROWS.length, 1_000_000, new AllTypes(), -1, null)
                .sinkTo(new SqlSink(pg.prepare("types", true, WriteMode.APPEND)))
                .uid("types/sink/warehouse");
        env.execute("types");

        assertThat(
                        TestPg.rows(
                                "SELECT column_name, data_type FROM information_schema.columns"
                                        + " WHERE table_schema = '"
                                        + pg.schema
                                        + "' AND table_name = 'all_types' ORDER BY"
                                        + " ordinal_position"))
                .extracting(r -> r.get(0) + " " + r.get(1))
                .containsExactly(
                        "id integer",
                        "b boolean",
                        "i16 smallint",
                        "i32 integer",
                        "i64 bigint",
                        "f32 real",
                        "f64 double precision",
                        "money numeric",
                        "wide numeric",
                        "any_number numeric",
                        "s text",
                        "j jsonb",
                        "u uuid",
                        "bin bytea",
                        "d date",
                        "t time without time zone",
                        "ts timestamp without time zone",
                        "tz timestamp with time zone",
                        "_skippr_id text",
                        "_skippr_synced_at timestamp with time zone");
        String loaded =
                "SELECT id, b, i16, i32, i64, f32, f64, money, wide, any_number, s, j, u, bin, d,"
                        + " t, ts, tz FROM "
                        + pg.table("all_types");
        String expected = "VALUES " + EXPECTED;
        assertThat(TestPg.one("SELECT count(*) FROM (" + loaded + ") x")).containsExactly("4");
        assertThat(TestPg.rows("(" + loaded + ") EXCEPT ALL (" + expected + ")"))
                .as("loaded rows that differ from the expected ones")
                .isEmpty();
        assertThat(TestPg.rows("(" + expected + ") EXCEPT ALL (" + loaded + ")"))
                .as("expected rows not loaded")
                .isEmpty();
        assertThat(
                        TestPg.rows(
                                "SELECT s, octet_length(s), _skippr_synced_at::text,"
                                        + " length(_skippr_id) FROM "
                                        + pg.table("all_types")
                                        + " WHERE id = 2"))
                .containsExactly(
                        List.of(
                                (String) ROWS[2][10],
                                String.valueOf(
                                        ((String) ROWS[2][10])
                                                .getBytes(java.nio.charset.StandardCharsets.UTF_8)
                                                .length),
                                "2024-01-02 03:04:05.678901+00",
                                "32"));
    }
}
