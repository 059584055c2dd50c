package io.skippr.sinks.clickhouse;

import static io.skippr.sinks.clickhouse.ClickHouseSql.quote;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.config.Secret;
import io.skippr.config.model.ResolvedSettings;
import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SkipprId;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.serde.SerializerTypeInfo;
import io.skippr.core.spi.FailPoint;
import io.skippr.core.spi.SinkContext;
import io.skippr.core.spi.SinkFactory;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ClickHouse sink against the real server that {@code scripts/test} starts (Debian's 18.16),
 * read back over its HTTP interface.
 */
@org.junit.jupiter.api.extension.ExtendWith(OneClassAtATime.class)
class ClickHouseSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension FLINK =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private static ClickHouseSettings settings;
    private static ClickHouseHttp http;

    @TempDir Path dir;

    @BeforeAll
    static void server() throws Exception {
        String host = System.getenv("SKIPPR_TEST_CH_HOST");
        String port = System.getenv("SKIPPR_TEST_CH_PORT");
        assertThat(host != null && port != null)
                .as(
                        "SKIPPR_TEST_CH_HOST and SKIPPR_TEST_CH_PORT are not set: run the tests"
                                + " with scripts/test, which starts ClickHouse (or `source"
                                + " scripts/lib/clickhouse.sh && ch_install && ch_start` first)")
                .isTrue();
        String password = System.getenv().getOrDefault("SKIPPR_TEST_CH_PASSWORD", "");
        settings =
                new ClickHouseSettings(
                        host,
                        Integer.parseInt(port),
                        System.getenv().getOrDefault("SKIPPR_TEST_CH_USER", "default"),
                        password.isEmpty() ? null : new Secret(password),
                        "skippr_it_" + Long.toHexString(ThreadLocalRandom.current().nextLong()),
                        false,
                        ClickHouseSettings.DEFAULT_BATCH_ROWS,
                        ClickHouseSettings.DEFAULT_BATCH_BYTES);
        http = new ClickHouseHttp(settings);
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        if (http != null) {
            http.query("DROP DATABASE IF EXISTS " + quote(settings.database()));
        }
    }

    private static StreamExecutionEnvironment env(RuntimeExecutionMode mode, int parallelism) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(parallelism);
        return env;
    }

    /** Runs {@code records} through the sink as a bounded job with one writer. */
    private static void load(List<SourceRecord> records, ClickHouseSettings with) throws Exception {
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH, 1);
        DataStream<SourceRecord> stream =
                env.fromData(records, SerializerTypeInfo.SOURCE_RECORD).name("rows");
        ClickHouseSinkFactory.sink(with, FailPoint.NONE).addTo(stream, "it/sink/clickhouse");
        env.execute("clickhouse it");
    }

    private static Row row(StreamSchema schema, long synced, Object... values) {
        String position = schema.stream() + "#" + values[0];
        return new Row(
                schema.stream(),
                schema.version(),
                Operation.INSERT,
                values,
                position,
                SkipprId.of(schema.stream(), position),
                synced);
    }

    /** The answer's lines, each split into its TabSeparated fields (still escaped). */
    private static List<String[]> select(String sql) throws Exception {
        List<String[]> rows = new ArrayList<>();
        for (String line : http.query(sql + " FORMAT TabSeparated").split("\n")) {
            if (!line.isEmpty()) {
                rows.add(line.split("\t", -1));
            }
        }
        return rows;
    }

    private static String table(String name) {
        return ClickHouseSql.table(settings.database(), name);
    }

    // ---------------------------------------------------------------- types

    private static final StreamSchema TYPES =
            new StreamSchema(
                    "Type Matrix",
                    List.of(
                            Column.of("n", DataType.INT32),
                            Column.of("b", DataType.BOOLEAN),
                            Column.of("i16", DataType.INT16),
                            Column.of("i64", DataType.INT64),
                            Column.of("f32", DataType.FLOAT32),
                            Column.of("f64", DataType.FLOAT64),
                            Column.of("dec", DataType.decimal(38, 10)),
                            Column.of("dec_small", DataType.decimal(9, 2)),
                            Column.of("num", DataType.decimal(0, 0)),
                            Column.of("s", DataType.STRING),
                            Column.of("j", DataType.JSON),
                            Column.of("u", DataType.UUID),
                            Column.of("bin", DataType.BYTES),
                            Column.of("d", DataType.DATE),
                            Column.of("t", DataType.TIME),
                            Column.of("ts", DataType.TIMESTAMP),
                            Column.of("tstz", DataType.TIMESTAMP_TZ)),
                    List.of("n"));

    private static final String HOSTILE_TEXT =
            "héllo wörld 日本語 🎉 tab\there\nnew line\r\\ back\\slash ' \" `"
                    + " \\N \u0001\u0007 end";

    private static List<Object[]> typeRows(String text) {
        return List.of(
                new Object[] {
                    0,
                    true,
                    Short.MAX_VALUE,
                    Long.MAX_VALUE,
                    Float.MAX_VALUE,
                    Double.MAX_VALUE,
                    new BigDecimal("1234567890123456789012345678.0123456789"),
                    new BigDecimal("9999999.99"),
                    new BigDecimal("123456789012345678901234567890123456789012.50"),
                    text,
                    "{\"a\": [1, 2.5, {\"b\": null}], \"ü\": \"\\u00fc\"}",
                    UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
                    new byte[] {0, 1, 2, '\t', '\n', '\\', 'N', (byte) 0xff, (byte) 0x80},
                    LocalDate.of(2105, 12, 31),
                    LocalTime.of(23, 59, 59, 999_999_000),
                    LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_012_000),
                    Instant.parse("2105-12-31T23:59:59Z")
                },
                new Object[] {
                    1,
                    false,
                    Short.MIN_VALUE,
                    Long.MIN_VALUE,
                    Float.MIN_VALUE,
                    Double.NaN,
                    new BigDecimal("-0.0000000001"),
                    new BigDecimal("-9999999.99"),
                    new BigDecimal("-0.000000000000000000000000000000000000000001"),
                    "",
                    "[]",
                    new UUID(0, 0),
                    new byte[0],
                    LocalDate.of(1970, 1, 1),
                    LocalTime.MIDNIGHT,
                    LocalDateTime.of(1970, 1, 1, 0, 0),
                    Instant.EPOCH
                },
                new Object[] {
                    2, null, null, null, null, null, null, null, null, null, null, null, null, null,
                    null, null, null
                },
                new Object[] {
                    3,
                    true,
                    (short) 0,
                    0L,
                    Float.NEGATIVE_INFINITY,
                    0.30000000000000004,
                    new BigDecimal("0E-10"),
                    new BigDecimal("0.10"),
                    new BigDecimal("1.50"),
                    "tab-free ascii",
                    "{}",
                    UUID.fromString("ffffffff-ffff-ffff-ffff-ffffffffffff"),
                    "日本".getBytes(StandardCharsets.UTF_8),
                    LocalDate.of(2024, 2, 29),
                    LocalTime.of(8, 0, 0, 500_000_000),
                    LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000),
                    Instant.parse("2024-05-01T10:00:00.123456Z")
                },
                new Object[] {
                    4,
                    false,
                    (short) -1,
                    -1L,
                    0.1f,
                    Double.POSITIVE_INFINITY,
                    new BigDecimal("1"),
                    new BigDecimal("-0.01"),
                    new BigDecimal("-1"),
                    "ünïcødé 𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
                    "null",
                    UUID.fromString("00000000-0000-0000-0000-000000000001"),
                    new byte[] {(byte) 0xc3, (byte) 0x28},
                    LocalDate.of(1970, 1, 2),
                    LocalTime.of(0, 0, 1),
                    LocalDateTime.of(2105, 12, 31, 23, 59, 59),
                    Instant.parse("1970-01-01T00:00:01Z")
                });
    }

    private static List<SourceRecord> typeRecords(long synced, String text) {
        List<SourceRecord> records = new ArrayList<>();
        records.add(new SchemaChange(TYPES));
        for (Object[] values : typeRows(text)) {
            records.add(row(TYPES, synced, values));
        }
        return records;
    }

    @Test
    void everyTypeRoundTripsWithNullsAndUnicodeAndTheLatestCopyWins() throws Exception {
        long first = 1_714_557_600_123_456L;
        long second = first + 5_000_000;
        // The same ids twice, the later copy loaded first: the version column decides, not the
        // order of inserts.
        load(typeRecords(second, HOSTILE_TEXT), settings);
        load(typeRecords(first, "older copy"), settings);

        assertThat(
                        select(
                                "SELECT name, type FROM system.columns WHERE database = "
                                        + ClickHouseSql.literal(settings.database())
                                        + " AND table = 'type_matrix'"))
                .extracting(r -> r[0] + " " + ClickHouseSql.unescapeField(r[1]))
                .containsExactly(
                        "n Nullable(Int32)",
                        "b Nullable(UInt8)",
                        "i16 Nullable(Int16)",
                        "i64 Nullable(Int64)",
                        "f32 Nullable(Float32)",
                        "f64 Nullable(Float64)",
                        "dec Nullable(Decimal(38, 10))",
                        "dec_small Nullable(Decimal(9, 2))",
                        "num Nullable(String)",
                        "s Nullable(String)",
                        "j Nullable(String)",
                        "u Nullable(UUID)",
                        "bin Nullable(String)",
                        "d Nullable(Date)",
                        "t Nullable(String)",
                        "ts Nullable(DateTime('UTC'))",
                        "tstz Nullable(DateTime('UTC'))",
                        "_skippr_id String",
                        "_skippr_synced_at DateTime('UTC')",
                        "_skippr_synced_at_us UInt64");
        assertThat(
                        select(
                                "SELECT engine, sorting_key FROM system.tables WHERE database = "
                                        + ClickHouseSql.literal(settings.database())
                                        + " AND name = 'type_matrix'"))
                .singleElement()
                .satisfies(r -> assertThat(r).containsExactly("ReplacingMergeTree", "_skippr_id"));
        assertThat(select("SELECT count() FROM " + table("type_matrix")).get(0)[0])
                .as("two copies of each row before merging")
                .isEqualTo("10");

        List<String[]> rows =
                select(
                        "SELECT n, b, i16, i64, f32, f64, dec, dec_small, num, s, j, u, hex(bin),"
                                + " toUInt16(d), t, toUnixTimestamp(ts), toUnixTimestamp(tstz),"
                                + " ts, _skippr_id, _skippr_synced_at_us,"
                                + " toUnixTimestamp(_skippr_synced_at) FROM "
                                + table("type_matrix")
                                + " FINAL ORDER BY n");
        List<Object[]> expected = typeRows(HOSTILE_TEXT);
        assertThat(rows).hasSize(expected.size());
        for (int r = 0; r < rows.size(); r++) {
            String[] got = rows.get(r);
            Object[] want = expected.get(r);
            String why = "row " + r + ": " + String.join(" | ", got);
            for (int c = 0; c < want.length; c++) {
                assertValue(TYPES.columns().get(c), got[c], want[c], why);
            }
            assertThat(got[17])
                    .as(why + ": DateTime as text, 1970-01-01 00:00:00 printed as zero")
                    .isEqualTo(
                            want[15] == null
                                    ? "\\N"
                                    : DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                                            .format((LocalDateTime) want[15])
                                            .replace("1970-01-01 00:00:00", "0000-00-00 00:00:00"));
            assertThat(got[18]).isEqualTo(SkipprId.of("Type Matrix", "Type Matrix#" + r));
            assertThat(got[19]).as("the latest copy wins").isEqualTo(Long.toString(second));
            assertThat(got[20]).isEqualTo(Long.toString(second / 1_000_000));
        }
    }

    private static void assertValue(Column column, String got, Object want, String why) {
        if (want == null) {
            assertThat(got).as(why + " / " + column.name()).isEqualTo("\\N");
            return;
        }
        Object actual =
                switch (column.type().kind()) {
                    case BOOLEAN -> got.equals("1");
                    case INT16 -> Short.parseShort(got);
                    case INT32 -> Integer.parseInt(got);
                    case INT64 -> Long.parseLong(got);
                    case FLOAT32 -> (float) floating(got);
                    case FLOAT64 -> floating(got);
                    case DECIMAL -> new BigDecimal(got);
                    case STRING, JSON, UUID, TIME -> ClickHouseSql.unescapeField(got);
                    case BYTES -> HexFormat.of().parseHex(got.toLowerCase());
                    case DATE -> LocalDate.ofEpochDay(Long.parseLong(got));
                    case TIMESTAMP ->
                            LocalDateTime.ofEpochSecond(Long.parseLong(got), 0, ZoneOffset.UTC);
                    case TIMESTAMP_TZ -> Instant.ofEpochSecond(Long.parseLong(got));
                };
        Object expected =
                switch (column.type().kind()) {
                    case UUID -> want.toString();
                    case TIME -> TabSeparatedRows.time((LocalTime) want);
                    case TIMESTAMP -> ((LocalDateTime) want).withNano(0); // whole seconds
                    case TIMESTAMP_TZ -> Instant.ofEpochSecond(((Instant) want).getEpochSecond());
                    default -> want;
                };
        String as = why + " / " + column.name();
        if (expected instanceof BigDecimal d && column.type().precision() > 0) {
            assertThat((BigDecimal) actual).as(as).isEqualByComparingTo(d);
        } else if (expected instanceof BigDecimal d) {
            assertThat(got)
                    .as(as + ": unbounded decimals keep their text")
                    .isEqualTo(d.toPlainString());
        } else if (expected instanceof Double d) {
            assertThat(Double.doubleToRawLongBits((Double) actual))
                    .as(as)
                    .isEqualTo(Double.doubleToRawLongBits(d));
        } else if (expected instanceof Float f) {
            assertThat(Float.floatToRawIntBits((Float) actual))
                    .as(as)
                    .isEqualTo(Float.floatToRawIntBits(f));
        } else if (expected instanceof byte[] b) {
            assertThat((byte[]) actual).as(as).isEqualTo(b);
        } else {
            assertThat(actual).as(as).isEqualTo(expected);
        }
    }

    private static double floating(String text) {
        return switch (text) {
            case "nan" -> Double.NaN;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(text);
        };
    }

    // ---------------------------------------------------------------- failures

    private static final StreamSchema EVENTS =
            new StreamSchema(
                    "Events",
                    List.of(
                            Column.of("n", DataType.INT64),
                            Column.of("name", DataType.STRING),
                            Column.of("score", DataType.FLOAT64)),
                    List.of("n"));

    @Test
    void streamingWithAFailureReplaysRowsThatCollapseToOneCopyEach() throws Exception {
        long n = 4000;
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.STREAMING, 2);
        env.enableCheckpointing(200);
        DataGeneratorSource<Long> source =
                new DataGeneratorSource<>(
                        i -> i, n, RateLimiterStrategy.perSecond(4000), Types.LONG);
        DataStream<SourceRecord> records =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "generator")
                        .flatMap(
                                new FailAfterUncheckpointedInserts(
                                        dir.resolve("failed").toString()),
                                SerializerTypeInfo.SOURCE_RECORD);
        // Small batches: rows are inserted between checkpoints, so the failure makes replays.
        ClickHouseSinkFactory.sink(settings.withBatchRows(100), FailPoint.NONE)
                .addTo(records, "it/sink/events");
        String events = table("events");
        String[] raw;
        // Background merges would fold the copies before they could be counted. This server
        // stops merges only of tables that exist, so the table is made first.
        new ClickHouseTables(http, settings.database()).prepare(EVENTS);
        http.query("SYSTEM STOP MERGES");
        try {
            env.execute("streaming with a failure");
            raw = select("SELECT count(), uniqExact(_skippr_id) FROM " + events).get(0);
        } finally {
            http.query("SYSTEM START MERGES");
        }

        assertThat(dir.resolve("failed")).as("the failure was injected").exists();
        assertThat(Long.parseLong(raw[0]))
                .as("rows inserted after the last checkpoint before the failure are sent again")
                .isGreaterThan(n);
        assertThat(raw[1]).isEqualTo(Long.toString(n));

        String checksum =
                "SELECT count(), uniqExact(_skippr_id), sum(n), min(n), max(n), sum(score * 2),"
                        + " countIf(name = concat('name-', toString(n))) FROM ";
        List<String> exact =
                List.of(
                        Long.toString(n),
                        Long.toString(n),
                        Long.toString(n * (n - 1) / 2),
                        "0",
                        Long.toString(n - 1),
                        Long.toString(n * (n - 1) / 2 * 3),
                        Long.toString(n));
        assertThat(select(checksum + events + " FINAL").get(0)).containsExactlyElementsOf(exact);

        http.query("OPTIMIZE TABLE " + events + " FINAL");
        assertThat(select(checksum + events).get(0))
                .as("after the merge the copies are gone from the table itself")
                .containsExactlyElementsOf(exact);
    }

    /**
     * Row {@code i} of the events stream is {@code (i, "name-i", i * 1.5)}. Fails once, as soon as
     * one subtask has passed 250 rows since its last checkpoint barrier: with batches of 100, at
     * least 200 of them have been inserted and are sent again after the restart.
     */
    static final class FailAfterUncheckpointedInserts
            implements FlatMapFunction<Long, SourceRecord>, CheckpointedFunction {
        private static final long serialVersionUID = 1L;

        private final String marker;
        private transient boolean schemaSent;
        private transient long sinceBarrier;
        private transient long seen;
        private transient boolean checkpointed;
        private transient boolean failed;

        FailAfterUncheckpointedInserts(String marker) {
            this.marker = marker;
        }

        @Override
        public void flatMap(Long i, Collector<SourceRecord> out) throws Exception {
            if (!failed && checkpointed && seen > 500 && sinceBarrier >= 250) {
                failed = true;
                try {
                    Files.createFile(Path.of(marker));
                    throw new IllegalStateException("injected failure at row " + i);
                } catch (FileAlreadyExistsException once) {
                    // another subtask, or the attempt before the restart, failed already
                }
            }
            if (!schemaSent) {
                out.collect(new SchemaChange(EVENTS));
                schemaSent = true;
            }
            out.collect(row(EVENTS, System.currentTimeMillis() * 1000, i, "name-" + i, i * 1.5));
            sinceBarrier++;
            seen++;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            sinceBarrier = 0;
            checkpointed = true;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}
    }

    // ---------------------------------------------------------------- schema changes

    @Test
    void aColumnAddedMidStreamIsAddedToTheTableBeforeItsRows() throws Exception {
        StreamSchema v1 =
                new StreamSchema(
                        "Orders",
                        List.of(
                                Column.of("id", DataType.INT64),
                                Column.of("status", DataType.STRING)),
                        List.of("id"));
        StreamSchema v2 =
                v1.withColumns(
                        List.of(
                                Column.of("amount", DataType.decimal(12, 2)),
                                Column.of("shipped on", DataType.DATE)));
        List<SourceRecord> records = new ArrayList<>();
        records.add(new SchemaChange(v1));
        for (long i = 0; i < 100; i++) {
            records.add(row(v1, 1, i, "new"));
        }
        records.add(new SchemaChange(v2));
        for (long i = 100; i < 200; i++) {
            records.add(
                    row(
                            v2,
                            1,
                            i,
                            "paid",
                            BigDecimal.valueOf(i * 100 + 5, 2),
                            LocalDate.of(2024, 1, 1)));
        }
        load(records, settings.withBatchRows(30));

        assertThat(
                        select(
                                "SELECT name, type FROM system.columns WHERE database = "
                                        + ClickHouseSql.literal(settings.database())
                                        + " AND table = 'orders'"))
                .extracting(r -> r[0] + " " + ClickHouseSql.unescapeField(r[1]))
                .containsExactly(
                        "id Nullable(Int64)",
                        "status Nullable(String)",
                        "_skippr_id String",
                        "_skippr_synced_at DateTime('UTC')",
                        "_skippr_synced_at_us UInt64",
                        "amount Nullable(Decimal(12, 2))",
                        "shipped on Nullable(Date)");
        assertThat(
                        select(
                                        "SELECT count(), countIf(amount IS NULL AND status = 'new'),"
                                                + " sum(amount), countIf(`shipped on` = '2024-01-01') FROM "
                                                + table("orders")
                                                + " FINAL")
                                .get(0))
                .containsExactly("200", "100", "14955.00", "100");
    }

    @Test
    void aNarrowerColumnIsWidenedAndAConflictingOneIsAClearError() throws Exception {
        ClickHouseTables tables = new ClickHouseTables(http, settings.database());
        StreamSchema narrow =
                new StreamSchema("Widen", List.of(Column.of("v", DataType.INT32)), List.of());
        tables.prepare(narrow);
        tables.prepare(
                new StreamSchema("Widen", List.of(Column.of("v", DataType.INT64)), List.of()));
        assertThat(tables.columns("widen")).containsEntry("v", "Nullable(Int64)");

        tables.prepare(narrow);
        assertThat(tables.columns("widen"))
                .as("a narrower type fits the wider column")
                .containsEntry("v", "Nullable(Int64)");

        assertThatThrownBy(
                        () ->
                                tables.prepare(
                                        new StreamSchema(
                                                "Widen",
                                                List.of(Column.of("v", DataType.DATE)),
                                                List.of())))
                .isInstanceOf(ClickHouseException.class)
                .hasMessageContaining(
                        "Column v of ClickHouse table " + settings.database() + ".widen")
                .hasMessageContaining("Nullable(Int64)")
                .hasMessageContaining("Nullable(Date)");
    }

    // ---------------------------------------------------------------- identifiers

    @Test
    void hostileStreamAndColumnNamesAreQuotedNeverExecuted() throws Exception {
        List<String> names =
                List.of(
                        "select",
                        "from",
                        "we\"ird",
                        "it's",
                        "back`tick",
                        "back\\slash",
                        "with space",
                        "ünïcødé 日本",
                        "tab\tand\nnewline",
                        "x); DROP TABLE orders; --",
                        "Upper Case",
                        "c".repeat(100));
        List<Column> columns = new ArrayList<>();
        columns.add(Column.of("id", DataType.INT32));
        names.forEach(name -> columns.add(Column.of(name, DataType.STRING)));
        StreamSchema schema =
                new StreamSchema("Ordér \"Items\"; DROP TABLE `x` --", columns, List.of("id"));
        StreamSchema reserved = new StreamSchema("select", List.of(columns.get(0)), List.of());

        List<SourceRecord> records = new ArrayList<>();
        records.add(new SchemaChange(schema));
        records.add(new SchemaChange(reserved));
        for (int i = 0; i < 3; i++) {
            Object[] values = new Object[columns.size()];
            values[0] = i;
            for (int c = 1; c < values.length; c++) {
                values[c] = names.get(c - 1) + " = " + i;
            }
            records.add(row(schema, 1, values));
            records.add(row(reserved, 1, i));
        }
        load(records, settings);

        String tableName = ClickHouseTables.tableName(schema.stream());
        assertThat(tableName).isEqualTo("order_items_drop_table_x");
        Map<String, String> stored =
                new ClickHouseTables(http, settings.database()).columns(tableName);
        assertThat(stored.keySet()).containsAll(names);

        StringBuilder sql = new StringBuilder("SELECT ");
        names.forEach(name -> sql.append(quote(name)).append(", "));
        sql.append("id FROM ").append(table(tableName)).append(" FINAL ORDER BY id");
        List<String[]> rows = select(sql.toString());
        assertThat(rows).hasSize(3);
        for (int i = 0; i < 3; i++) {
            for (int c = 0; c < names.size(); c++) {
                assertThat(ClickHouseSql.unescapeField(rows.get(i)[c]))
                        .isEqualTo(names.get(c) + " = " + i);
            }
        }
        assertThat(select("SELECT count() FROM " + table("select") + " FINAL").get(0))
                .containsExactly("3");
    }

    // ---------------------------------------------------------------- login

    private static SinkFactory factory() {
        return ServiceLoader.load(SinkFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(f -> f.kind().equals("ClickHouse"))
                .findFirst()
                .orElseThrow();
    }

    private static SinkContext context(int port, String password) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("host", settings.host());
        values.put("port", (long) port);
        values.put("user", settings.user());
        values.put("password", new Secret(password));
        values.put("database", settings.database());
        return new SinkContext(
                "orders", "warehouse", new ResolvedSettings(null, values), true, null, "append");
    }

    private static String everything(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }

    @Test
    void aWrongPasswordOrAnUnreachableServerIsAClearErrorWithoutThePassword() throws Exception {
        String password = "s3cr3t-Pa55word";
        String server = "http://" + settings.host() + ":" + settings.port();
        assertThatThrownBy(() -> factory().create(context(settings.port(), password)))
                .isInstanceOf(ClickHouseException.class)
                .hasMessageContaining(
                        "ClickHouse at " + server + " as user 'default' refused the login")
                .hasMessageContaining("Wrong password")
                .satisfies(e -> assertThat(everything(e)).doesNotContain(password));

        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        assertThatThrownBy(() -> factory().create(context(closed, password)))
                .isInstanceOf(ClickHouseException.class)
                .hasMessageStartingWith(
                        "Cannot reach ClickHouse at http://"
                                + settings.host()
                                + ":"
                                + closed
                                + " as user 'default'")
                .satisfies(e -> assertThat(everything(e)).doesNotContain(password));
    }

    /** A deadletter sink's bounded run: the pipeline's deadletters at {@code positions}. */
    private static void deadletters(long dataRun, String... positions) throws Exception {
        java.util.List<io.skippr.core.record.SourceRecord> records =
                io.skippr.sinks.DeadletterRecords.of(dataRun, positions);
        StreamExecutionEnvironment env = env(RuntimeExecutionMode.BATCH, 1);
        DataStream<SourceRecord> stream =
                env.fromData(records, SerializerTypeInfo.SOURCE_RECORD).name("deadletters");
        ClickHouseSinkFactory.sink(settings, FailPoint.NONE, true, dataRun)
                .addTo(stream, "orders/deadletters/rejects", null);
        env.execute("clickhouse deadletters of data run " + dataRun);
    }

    /**
     * A deadletter sink's {@code --once} run deletes, before it writes, the deadletters of its data
     * run that an earlier attempt inserted (their data did not commit, or this run would have
     * another data run), and keeps those of other data runs: each deadletter once, as the table
     * holds it, without waiting for a merge or {@code FINAL}. On main the rerun's 3 deadletters
     * were added beside the attempt's until a merge folded them.
     */
    @Test
    void aBoundedDeadletterRunReplacesTheDeadlettersAnEarlierAttemptOfItsDataRunLeft()
            throws Exception {
        deadletters(1, "a.csv#5", "a.csv#6"); // data run 1 committed
        deadletters(2, "b.csv#1", "b.csv#2", "b.csv#3"); // data run 2's data did not commit
        deadletters(2, "b.csv#1", "b.csv#2", "b.csv#3"); // its rerun
        String dl = table(io.skippr.core.record.Deadletter.STREAM);
        assertThat(
                        select(
                                "SELECT source_position, data_run FROM "
                                        + dl
                                        + " ORDER BY source_position"))
                .extracting(r -> r[0] + " " + r[1])
                .containsExactly("a.csv#5 1", "a.csv#6 1", "b.csv#1 2", "b.csv#2 2", "b.csv#3 2");
        assertThat(select("SELECT count(), uniqExact(_skippr_id), sum(data_run) FROM " + dl))
                .extracting(r -> String.join(" ", r))
                .containsExactly("5 5 8");
    }

    @Test
    void writeModesOtherThanAppendAreRefused() {
        Map<String, Object> values = new HashMap<>(Map.of("host", settings.host()));
        SinkContext merge =
                new SinkContext(
                        "orders",
                        "warehouse",
                        new ResolvedSettings(null, values),
                        true,
                        null,
                        "merge");
        assertThatThrownBy(() -> factory().create(merge))
                .isInstanceOf(io.skippr.config.ConfigException.class)
                .hasMessage(
                        "skippr.yml: pipelines.orders.write_mode: ClickHouse sinks only"
                                + " append; write_mode merge needs a SQL destination such as Postgres or"
                                + " DuckDB");
    }
}
