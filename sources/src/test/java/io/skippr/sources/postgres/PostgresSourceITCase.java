package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.skippr.core.record.Column;
import io.skippr.core.record.CursorValues;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.SourceRecord;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.record.Undecodable;
import io.skippr.core.serde.SerializerTypeInfo;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The Postgres source in Flink jobs on a MiniCluster, against a real PostgreSQL. */
class PostgresSourceITCase {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    private String schema;

    @BeforeEach
    void createSchema() throws Exception {
        schema = PgTestDatabase.createSchema("skippr_src_");
    }

    @AfterEach
    void dropSchema() throws Exception {
        PgTestDatabase.dropSchema(schema);
    }

    private PostgresSourceConfig config(List<String> tables, String cursor) {
        return PostgresSourceConfig.of(
                PgTestDatabase.connection(), schema, tables, cursor, true, Map.of());
    }

    private static StreamExecutionEnvironment env(int parallelism, boolean batch) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        assertThat(env.getConfig().getSerializerConfig().hasGenericTypesDisabled()).isTrue();
        env.setParallelism(parallelism);
        env.setRuntimeMode(batch ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING);
        return env;
    }

    /** Runs a bounded source to the end and returns everything it emitted. */
    private static List<SourceRecord> run(PostgresSourceConfig config, int parallelism)
            throws Exception {
        List<SourceRecord> out = new ArrayList<>();
        try (CloseableIterator<SourceRecord> it =
                env(parallelism, true)
                        .fromSource(
                                new PostgresSource(config),
                                WatermarkStrategy.noWatermarks(),
                                "postgres")
                        .executeAndCollect("postgres-source-test")) {
            it.forEachRemaining(out::add);
        }
        assertSchemasFirst(out);
        return out;
    }

    /**
     * Every stream's first record is its schema, and rows use an announced version; a continuous
     * source's split openings, which the job's progress step keeps, may come first.
     */
    private static void assertSchemasFirst(List<SourceRecord> records) {
        Map<String, Set<Long>> announced = new HashMap<>();
        for (SourceRecord r : records) {
            if (r instanceof io.skippr.core.record.ReadPosition p
                    && io.skippr.core.record.ReadPositions.isOpening(p.position())) {
                continue;
            }
            if (r instanceof SchemaChange c) {
                announced
                        .computeIfAbsent(c.stream(), s -> new HashSet<>())
                        .add(c.schema().version());
            } else {
                assertThat(announced)
                        .as("schema before the first record of " + r.stream())
                        .containsKey(r.stream());
                if (r instanceof Row row) {
                    assertThat(announced.get(row.stream())).contains(row.schemaVersion());
                }
            }
        }
    }

    private static List<Row> rows(List<SourceRecord> records, String stream) {
        return records.stream()
                .filter(r -> r instanceof Row && r.stream().equals(stream))
                .map(Row.class::cast)
                .toList();
    }

    private static StreamSchema schemaOf(List<SourceRecord> records, String stream) {
        return records.stream()
                .filter(r -> r instanceof SchemaChange && r.stream().equals(stream))
                .map(r -> ((SchemaChange) r).schema())
                .findFirst()
                .orElseThrow();
    }

    private static Throwable rootWithMessage(Throwable e, String text) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(text)) {
                return t;
            }
        }
        return fail("no cause of " + e + " says: " + text);
    }

    @Test
    void mapsEveryTypeWithNullsAndUnicode() throws Exception {
        String t = Sql.table(schema, "types");
        PgTestDatabase.exec(
                "CREATE TYPE " + Sql.quote(schema) + ".mood AS ENUM ('sad', 'happy')",
                "CREATE DOMAIN " + Sql.quote(schema) + ".positive AS int4 CHECK (VALUE > 0)",
                "CREATE TABLE "
                        + t
                        + " (id int2 PRIMARY KEY, i4 int4, i8 int8 NOT NULL,"
                        + " f4 float4, f8 float8, dc numeric(10,2), num numeric, neg numeric(5,-2),"
                        + " b bool, tx text, vc varchar(20), ch char(4), nm name, js json, jb jsonb,"
                        + " u uuid, bin bytea, d date, tm time, ts timestamp, tz timestamptz,"
                        + " arr int4[], md "
                        + Sql.quote(schema)
                        + ".mood, iv interval, ip inet,"
                        + " dom "
                        + Sql.quote(schema)
                        + ".positive)",
                "INSERT INTO "
                        + t
                        + " VALUES (1, 2147483647, -9223372036854775808, 1.5, -2.25,"
                        + " 12345678.91, 3.14159265358979323846264338327950288, 12300, true,"
                        + " 'Grüße, 世界 🌍 \"q\" ''s', 'héllo', 'ab', 'nämé',"
                        + " '{\"k\": [1, \"ü\"]}', '{\"b\": 2, \"a\": 1}',"
                        + " 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '\\xdeadbeef00', '2024-02-29',"
                        + " '23:59:59.123456', '1999-12-31 23:59:59.999999',"
                        + " '2024-05-01 12:00:00.5+02', '{1,NULL,3}', 'happy', '1 day 02:03:04',"
                        + " '192.168.0.1/24', 7)",
                "INSERT INTO " + t + " (id, i8) VALUES (2, 0)");
        List<SourceRecord> out = run(config(List.of(), null), 1);
        StreamSchema s = schemaOf(out, "types");
        Map<String, DataType> types =
                s.columns().stream().collect(Collectors.toMap(Column::name, Column::type));
        assertThat(types)
                .containsEntry("id", DataType.INT16)
                .containsEntry("i4", DataType.INT32)
                .containsEntry("i8", DataType.INT64)
                .containsEntry("f4", DataType.FLOAT32)
                .containsEntry("f8", DataType.FLOAT64)
                .containsEntry("dc", DataType.decimal(10, 2))
                .containsEntry("num", DataType.decimal(0, 0))
                .containsEntry("neg", DataType.decimal(5, -2))
                .containsEntry("b", DataType.BOOLEAN)
                .containsEntry("tx", DataType.STRING)
                .containsEntry("vc", DataType.STRING)
                .containsEntry("ch", DataType.STRING)
                .containsEntry("nm", DataType.STRING)
                .containsEntry("js", DataType.JSON)
                .containsEntry("jb", DataType.JSON)
                .containsEntry("u", DataType.UUID)
                .containsEntry("bin", DataType.BYTES)
                .containsEntry("d", DataType.DATE)
                .containsEntry("tm", DataType.TIME)
                .containsEntry("ts", DataType.TIMESTAMP)
                .containsEntry("tz", DataType.TIMESTAMP_TZ)
                .containsEntry("arr", DataType.STRING)
                .containsEntry("md", DataType.STRING)
                .containsEntry("iv", DataType.STRING)
                .containsEntry("ip", DataType.STRING)
                .containsEntry("dom", DataType.INT32);
        assertThat(s.primaryKey()).containsExactly("id");
        assertThat(s.cursorColumn()).isNull();
        assertThat(s.columns().get(s.indexOf("i8")).nullable()).isFalse();
        assertThat(s.columns().get(s.indexOf("i4")).nullable()).isTrue();

        List<Row> rows = rows(out, "types");
        assertThat(rows).hasSize(2);
        Row full =
                rows.stream().filter(r -> r.value(0).equals((short) 1)).findFirst().orElseThrow();
        Map<String, Object> v = new HashMap<>();
        for (int i = 0; i < s.size(); i++) {
            v.put(s.columns().get(i).name(), full.value(i));
        }
        assertThat(v.get("id")).isEqualTo((short) 1);
        assertThat(v.get("i4")).isEqualTo(Integer.MAX_VALUE);
        assertThat(v.get("i8")).isEqualTo(Long.MIN_VALUE);
        assertThat(v.get("f4")).isEqualTo(1.5f);
        assertThat(v.get("f8")).isEqualTo(-2.25d);
        assertThat(v.get("dc")).isEqualTo(new BigDecimal("12345678.91"));
        assertThat(v.get("num")).isEqualTo(new BigDecimal("3.14159265358979323846264338327950288"));
        assertThat(v.get("neg")).isEqualTo(new BigDecimal("12300"));
        assertThat(v.get("b")).isEqualTo(true);
        assertThat(v.get("tx")).isEqualTo("Grüße, 世界 🌍 \"q\" 's");
        assertThat(v.get("vc")).isEqualTo("héllo");
        assertThat(v.get("ch")).isEqualTo("ab  ");
        assertThat(v.get("nm")).isEqualTo("nämé");
        assertThat(v.get("js")).isEqualTo("{\"k\": [1, \"ü\"]}");
        assertThat(v.get("jb")).isEqualTo("{\"a\": 1, \"b\": 2}");
        assertThat(v.get("u")).isEqualTo(UUID.fromString("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"));
        assertThat((byte[]) v.get("bin")).containsExactly(0xde, 0xad, 0xbe, 0xef, 0x00);
        assertThat(v.get("d")).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(v.get("tm")).isEqualTo(LocalTime.of(23, 59, 59, 123_456_000));
        assertThat(v.get("ts")).isEqualTo(LocalDateTime.of(1999, 12, 31, 23, 59, 59, 999_999_000));
        assertThat(v.get("tz")).isEqualTo(Instant.parse("2024-05-01T10:00:00.5Z"));
        assertThat(v.get("arr")).isEqualTo("{1,NULL,3}");
        assertThat(v.get("md")).isEqualTo("happy");
        assertThat(v.get("iv")).isEqualTo("1 day 02:03:04");
        assertThat(v.get("ip")).isEqualTo("192.168.0.1/24");
        assertThat(v.get("dom")).isEqualTo(7);
        for (int i = 0; i < s.size(); i++) {
            Object value = full.value(i);
            assertThat(value).isInstanceOf(s.columns().get(i).type().javaClass());
        }
        assertThat(full.position()).isEqualTo("types|id=1");

        Row nulls =
                rows.stream().filter(r -> r.value(0).equals((short) 2)).findFirst().orElseThrow();
        for (int i = 0; i < s.size(); i++) {
            String name = s.columns().get(i).name();
            if (!name.equals("id") && !name.equals("i8")) {
                assertThat(nulls.value(i)).as(name).isNull();
            }
        }
    }

    @Test
    void valuesWithoutARepresentationBecomeUndecodable() throws Exception {
        String t = Sql.table(schema, "odd");
        PgTestDatabase.exec(
                "CREATE TABLE "
                        + t
                        + " (id int PRIMARY KEY, n numeric, d date, tz timestamptz,"
                        + " f float8)",
                "INSERT INTO "
                        + t
                        + " VALUES (1, 'NaN', '2024-01-01', now(), 'NaN'),"
                        + " (2, 1, 'infinity', now(), 1), (3, 1, '2024-01-01', '-infinity', 1),"
                        + " (4, 2.5, '2024-01-01', '2024-01-01 00:00:00+00', 'Infinity')");
        List<SourceRecord> out = run(config(List.of("odd"), null), 1);
        List<Undecodable> bad =
                out.stream()
                        .filter(Undecodable.class::isInstance)
                        .map(Undecodable.class::cast)
                        .sorted(Comparator.comparing(Undecodable::position))
                        .toList();
        assertThat(bad)
                .extracting(Undecodable::position)
                .containsExactly("odd|id=1", "odd|id=2", "odd|id=3");
        assertThat(bad.get(0).error()).contains("\"n\"").contains("NaN");
        assertThat(bad.get(1).error()).contains("\"d\"").contains("infinity");
        assertThat(bad.get(2).error()).contains("\"tz\"").contains("-infinity");
        assertThat(bad.get(1).payload()).contains("\"d\":\"infinity\"").contains("\"id\":\"2\"");
        List<Row> good = rows(out, "odd");
        assertThat(good).hasSize(1);
        assertThat(good.get(0).value(4)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void readsKeyRangesInParallelExactlyOnce() throws Exception {
        String t = Sql.table(schema, "big");
        int n = 30_000;
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id bigint PRIMARY KEY, name text, amount numeric(12,2))",
                "INSERT INTO "
                        + t
                        + " SELECT g, md5(g::text), g / 7.0"
                        + " FROM generate_series(1, "
                        + n
                        + ") g",
                "ANALYZE " + t);
        List<PostgresSplit> planned;
        try (Connection c = PgTestDatabase.open()) {
            planned =
                    SplitPlanner.snapshotSplits(
                            c, PostgresCatalog.describe(c, schema, "big", null), null, 4_000, 2);
        }
        assertThat(planned).hasSizeGreaterThanOrEqualTo(7);

        List<SourceRecord> out = run(config(List.of("big"), null).withTargetRowsPerSplit(4_000), 2);
        List<Row> rows = rows(out, "big");
        assertThat(rows).hasSize(n);
        assertThat(rows.stream().map(Row::position).distinct().count()).isEqualTo(n);
        assertThat(out.stream().filter(SchemaChange.class::isInstance).count()).isBetween(1L, 2L);

        long idSum = 0;
        BigDecimal amountSum = BigDecimal.ZERO;
        StringBuilder names = new StringBuilder();
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(r -> (Long) r.value(0)));
        for (Row r : sorted) {
            idSum += (Long) r.value(0);
            names.append((String) r.value(1));
            amountSum = amountSum.add((BigDecimal) r.value(2));
        }
        try (Connection c = PgTestDatabase.open();
                Statement s = c.createStatement();
                ResultSet rs =
                        s.executeQuery(
                                "SELECT count(*), sum(id), sum(amount), md5(string_agg(name, '' ORDER BY id))"
                                        + " FROM "
                                        + t)) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(n);
            assertThat(idSum).isEqualTo(rs.getLong(2));
            assertThat(amountSum).isEqualTo(rs.getBigDecimal(3));
            assertThat(md5(names.toString())).isEqualTo(rs.getString(4));
        }
    }

    private static String md5(String text) throws Exception {
        byte[] d =
                java.security.MessageDigest.getInstance("MD5")
                        .digest(text.getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder();
        for (byte b : d) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }

    @Test
    void choosesTablesByListAndPattern() throws Exception {
        for (String name : List.of("orders_2023", "orders_2024", "customers", "audit")) {
            PgTestDatabase.exec(
                    "CREATE TABLE " + Sql.table(schema, name) + " (id int PRIMARY KEY)",
                    "INSERT INTO " + Sql.table(schema, name) + " VALUES (1), (2)");
        }
        List<SourceRecord> listed = run(config(List.of("customers", "orders_*"), null), 2);
        assertThat(listed.stream().map(SourceRecord::stream).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("customers", "orders_2023", "orders_2024");
        assertThat(listed.stream().filter(Row.class::isInstance).count()).isEqualTo(6);

        List<SourceRecord> all = run(config(List.of(), null), 2);
        assertThat(all.stream().map(SourceRecord::stream).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder("customers", "orders_2023", "orders_2024", "audit");
        assertThat(rows(all, "audit"))
                .extracting(Row::position)
                .containsExactlyInAnyOrder("audit|id=1", "audit|id=2");
    }

    @Test
    void badTableNamesFailTheJobClearly() throws Exception {
        PgTestDatabase.exec("CREATE TABLE " + Sql.table(schema, "orders") + " (id int)");
        Throwable missing =
                Assertions.assertThrows(
                        Exception.class, () -> run(config(List.of("ordrs"), null), 1));
        assertThat(rootWithMessage(missing, "Table \"ordrs\" does not exist").getMessage())
                .contains("in schema \"" + schema + "\"")
                .contains("close names: \"orders\"");

        Throwable pattern =
                Assertions.assertThrows(
                        Exception.class, () -> run(config(List.of("invoices_*"), null), 1));
        rootWithMessage(pattern, "Table pattern 'invoices_*' matches no table");

        Throwable cursor =
                Assertions.assertThrows(
                        Exception.class, () -> run(config(List.of("orders"), "updated_at"), 1));
        rootWithMessage(
                cursor, "Table \"" + schema + "\".\"orders\" has no cursor column \"updated_at\"");

        PostgresSourceConfig noSchema =
                PostgresSourceConfig.of(
                        PgTestDatabase.connection(),
                        schema + "_nope",
                        List.of(),
                        null,
                        true,
                        Map.of());
        Throwable badSchema = Assertions.assertThrows(Exception.class, () -> run(noSchema, 1));
        rootWithMessage(badSchema, "Schema \"" + schema + "_nope\" does not exist");
    }

    @Test
    void readsHostileIdentifiers() throws Exception {
        String hostileSchema = PgTestDatabase.createSchema("Skippr \"Ünï\" sch; ");
        try {
            String table = "Order \"Items\"; DROP ü";
            String t = Sql.table(hostileSchema, table);
            PgTestDatabase.exec(
                    "CREATE TABLE "
                            + t
                            + " (\"select\" int PRIMARY KEY, \"Spaced \"\"Col\"\"\" text,"
                            + " \"ünï 世界\" text, \"Updated \"\"At\"\"\" timestamptz)",
                    "INSERT INTO "
                            + t
                            + " VALUES (1, 'a', 'b', '2024-01-01 00:00:00+00'),"
                            + " (2, 'c', 'd', '2024-01-02 00:00:00+00')",
                    "CREATE TABLE " + Sql.table(hostileSchema, "user") + " (\"group\" text)",
                    "INSERT INTO " + Sql.table(hostileSchema, "user") + " VALUES ('x')");
            PostgresSourceConfig byPattern =
                    PostgresSourceConfig.of(
                            PgTestDatabase.connection(),
                            hostileSchema,
                            List.of("Order \"*"),
                            "Updated \"At\"",
                            true,
                            Map.of());
            List<SourceRecord> out = run(byPattern.withTargetRowsPerSplit(1), 2);
            StreamSchema s = schemaOf(out, table);
            assertThat(s.columns())
                    .extracting(Column::name)
                    .containsExactly("select", "Spaced \"Col\"", "ünï 世界", "Updated \"At\"");
            assertThat(s.cursorColumn()).isEqualTo("Updated \"At\"");
            assertThat(rows(out, table))
                    .extracting(Row::position)
                    .containsExactlyInAnyOrder(
                            table + "|select=1|Updated \"At\"=2024-01-01T00:00:00Z",
                            table + "|select=2|Updated \"At\"=2024-01-02T00:00:00Z");

            PostgresSourceConfig incremental =
                    PostgresSourceConfig.of(
                            PgTestDatabase.connection(),
                            hostileSchema,
                            List.of(table),
                            "Updated \"At\"",
                            true,
                            Map.of(table, "2024-01-01T00:00:00Z"));
            assertThat(rows(run(incremental, 1), table))
                    .extracting(r -> r.value(0))
                    .containsExactly(2);

            PostgresSourceConfig user =
                    PostgresSourceConfig.of(
                            PgTestDatabase.connection(),
                            hostileSchema,
                            List.of("user"),
                            null,
                            true,
                            Map.of());
            assertThat(rows(run(user, 1), "user"))
                    .extracting(Row::position)
                    .singleElement()
                    .asString()
                    .matches("user\\|#[0-9]+\\(0,1\\)@[0-9]+");
        } finally {
            PgTestDatabase.dropSchema(hostileSchema);
        }
    }

    @Test
    void secondRunReadsOnlyNewAndChangedRows() throws Exception {
        String t = Sql.table(schema, "events");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id int PRIMARY KEY, v text, updated_at timestamptz)",
                "INSERT INTO "
                        + t
                        + " SELECT g, 'v' || g,"
                        + " '2024-01-01 00:00:00+00'::timestamptz + g * interval '1 minute'"
                        + " FROM generate_series(1, 20) g",
                "INSERT INTO " + t + " VALUES (21, 'no cursor yet', NULL)");
        List<SourceRecord> first = run(config(List.of("events"), "updated_at"), 2);
        List<Row> firstRows = rows(first, "events");
        assertThat(firstRows).hasSize(21);
        assertThat(schemaOf(first, "events").cursorColumn()).isEqualTo("updated_at");
        int cursor = schemaOf(first, "events").indexOf("updated_at");
        Object max = null;
        for (Row r : firstRows) {
            max = CursorValues.max(max, r.value(cursor));
        }
        String position = CursorValues.toText(max);
        assertThat(position).isEqualTo("2024-01-01T00:20:00Z");
        assertThat(firstRows)
                .extracting(Row::position)
                .contains(
                        "events|id=20|updated_at=2024-01-01T00:20:00Z", "events|id=21|updated_at=");

        PgTestDatabase.exec(
                "INSERT INTO "
                        + t
                        + " VALUES (22, 'new', '2024-01-02 00:00:00+00'),"
                        + " (23, 'new too', '2024-01-02 00:00:01+00')",
                "UPDATE "
                        + t
                        + " SET v = 'changed', updated_at = '2024-01-03 00:00:00+00'"
                        + " WHERE id = 5");
        PostgresSourceConfig second =
                PostgresSourceConfig.of(
                        PgTestDatabase.connection(),
                        schema,
                        List.of("events"),
                        "updated_at",
                        true,
                        Map.of("events", position));
        List<Row> secondRows = rows(run(second, 2), "events");
        assertThat(secondRows).extracting(r -> r.value(0)).containsExactlyInAnyOrder(22, 23, 5);
        assertThat(secondRows)
                .extracting(Row::position)
                .contains("events|id=5|updated_at=2024-01-03T00:00:00Z");

        // an integer cursor: the key itself
        PostgresSourceConfig byId =
                PostgresSourceConfig.of(
                        PgTestDatabase.connection(),
                        schema,
                        List.of("events"),
                        "id",
                        true,
                        Map.of("events", "21"));
        assertThat(rows(run(byId, 1), "events"))
                .extracting(r -> r.value(0))
                .containsExactlyInAnyOrder(22, 23);
    }

    @Test
    void continuousModePicksUpNewRows() throws Exception {
        String t = Sql.table(schema, "stream");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id bigserial PRIMARY KEY, v text, seq int NOT NULL)",
                "INSERT INTO " + t + " (v, seq) SELECT 'v' || g, g FROM generate_series(1, 5) g");
        PostgresSourceConfig config =
                PostgresSourceConfig.of(
                                PgTestDatabase.connection(),
                                schema,
                                List.of("stream"),
                                "seq",
                                false,
                                Map.of())
                        .withPollIntervalMillis(200);
        PostgresSource source = new PostgresSource(config);
        assertThat(source.getBoundedness())
                .isEqualTo(org.apache.flink.api.connector.source.Boundedness.CONTINUOUS_UNBOUNDED);
        List<SourceRecord> seen = new ArrayList<>();
        try (CloseableIterator<SourceRecord> it =
                env(2, false)
                        .fromSource(source, WatermarkStrategy.noWatermarks(), "postgres")
                        .executeAndCollect("postgres-continuous-test")) {
            Assertions.assertTimeoutPreemptively(
                    Duration.ofSeconds(40),
                    () -> {
                        readUntil(it, seen, 5);
                        PgTestDatabase.exec(
                                "INSERT INTO " + t + " (v, seq) VALUES ('late', 6), ('later', 7)");
                        readUntil(it, seen, 7);
                        PgTestDatabase.exec(
                                "ALTER TABLE " + t + " ADD COLUMN extra text",
                                "INSERT INTO " + t + " (v, seq, extra) VALUES ('x', 8, 'new')");
                        readUntil(it, seen, 8);
                    });
        }
        assertSchemasFirst(seen);
        List<Row> rows = rows(seen, "stream");
        assertThat(rows).extracting(Row::position).doesNotHaveDuplicates();
        assertThat(rows)
                .extracting(r -> r.value(2))
                .containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8);
        Row last = rows.get(rows.size() - 1);
        assertThat(last.values()).hasSize(4);
        assertThat(last.value(3)).isEqualTo("new");
        List<StreamSchema> schemas =
                seen.stream()
                        .filter(SchemaChange.class::isInstance)
                        .map(r -> ((SchemaChange) r).schema())
                        .distinct()
                        .toList();
        assertThat(schemas).hasSize(2);
        assertThat(schemas.get(1).columns()).extracting(Column::name).endsWith("extra");
    }

    @Test
    void restoresMidTableAfterAFailureWithoutLossOrDuplicates() throws Exception {
        String t = Sql.table(schema, "restore");
        int n = 4_000;
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id int PRIMARY KEY, v int)",
                "INSERT INTO " + t + " SELECT g, g * 2 FROM generate_series(1, " + n + ") g",
                "CREATE TABLE " + Sql.table(schema, "restore_nokey") + " (v int)",
                "INSERT INTO "
                        + Sql.table(schema, "restore_nokey")
                        + " SELECT g % 10 FROM generate_series(1, "
                        + n
                        + ") g");
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        List<SourceRecord> out = new ArrayList<>();
        try (CloseableIterator<SourceRecord> it =
                env.fromSource(
                                new PostgresSource(
                                        config(List.of("restore", "restore_nokey"), null)),
                                WatermarkStrategy.noWatermarks(),
                                "postgres")
                        .map(new FailOnceAfterACheckpoint(200), SerializerTypeInfo.SOURCE_RECORD)
                        .executeAndCollect("postgres-restore-test")) {
            it.forEachRemaining(out::add);
        }
        assertSchemasFirst(out);
        assertThat(out.stream().filter(SchemaChange.class::isInstance).count())
                .as("schemas announced again after the restore")
                .isGreaterThan(2);
        List<Row> keyed = rows(out, "restore");
        assertThat(keyed).hasSize(n);
        assertThat(keyed).extracting(Row::position).doesNotHaveDuplicates();
        assertThat(keyed.stream().mapToLong(r -> (Integer) r.value(1)).sum())
                .isEqualTo((long) n * (n + 1));
        List<Row> unkeyed = rows(out, "restore_nokey");
        assertThat(unkeyed).hasSize(n);
        assertThat(unkeyed).extracting(Row::position).doesNotHaveDuplicates();
        assertThat(unkeyed.stream().mapToLong(r -> (Integer) r.value(0)).sum())
                .isEqualTo(n / 10 * 45L);
    }

    /**
     * In the first attempt, passes records on slowly until a completed checkpoint holds at least
     * {@code failAfter} of them, then fails: the restore starts mid-table. Later attempts pass
     * records on at full speed.
     */
    static final class FailOnceAfterACheckpoint extends RichMapFunction<SourceRecord, SourceRecord>
            implements CheckpointedFunction, CheckpointListener {
        private final int failAfter;
        private final Map<Long, Integer> countAtCheckpoint = new HashMap<>();
        private int count;
        private volatile boolean safe;

        FailOnceAfterACheckpoint(int failAfter) {
            this.failAfter = failAfter;
        }

        @Override
        public SourceRecord map(SourceRecord record) {
            count++;
            if (getRuntimeContext().getTaskInfo().getAttemptNumber() == 0) {
                if (safe) {
                    throw new IllegalStateException("injected failure after " + count + " records");
                }
                LockSupport.parkNanos(1_000_000);
            }
            return record;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            countAtCheckpoint.put(context.getCheckpointId(), count);
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            Integer held = countAtCheckpoint.get(checkpointId);
            if (held != null && held >= failAfter) {
                safe = true;
            }
        }
    }

    @Test
    void continuousModeWithoutACursorReadsOnceThenIdles() throws Exception {
        String t = Sql.table(schema, "plain");
        PgTestDatabase.exec(
                "CREATE TABLE " + t + " (id int PRIMARY KEY)",
                "INSERT INTO " + t + " SELECT g FROM generate_series(1, 50) g");
        PostgresSourceConfig config =
                PostgresSourceConfig.of(
                                PgTestDatabase.connection(),
                                schema,
                                List.of(),
                                null,
                                false,
                                Map.of())
                        .withPollIntervalMillis(100);
        StreamExecutionEnvironment env = env(2, false);
        CloseableIterator<SourceRecord> it =
                env.fromSource(new PostgresSource(config), WatermarkStrategy.noWatermarks(), "pg")
                        .collectAsync();
        JobClient job = env.executeAsync("postgres-idle-test");
        List<SourceRecord> seen = new ArrayList<>();
        try (it) {
            Assertions.assertTimeoutPreemptively(
                    Duration.ofSeconds(30), () -> readUntil(it, seen, 50));
            PgTestDatabase.exec("INSERT INTO " + t + " VALUES (51)");
            assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        } finally {
            job.cancel().get();
        }
        assertThat(rows(seen, "plain")).hasSize(50);
    }

    /** Reads until {@code rows} rows of the stream were seen; the caller bounds the time. */
    private static void readUntil(
            CloseableIterator<SourceRecord> it, List<SourceRecord> seen, int rows) {
        while (seen.stream().filter(Row.class::isInstance).count() < rows) {
            assertThat(it.hasNext()).isTrue();
            seen.add(it.next());
        }
    }
}
