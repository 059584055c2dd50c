package io.skippr.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Deadletter;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.SchemaChange;
import io.skippr.core.record.StreamSchema;
import io.skippr.core.serde.DeadletterSerializer;
import io.skippr.core.serde.SourceRecordSerializer;
import io.skippr.sinks.sql.SqlCommittable;
import io.skippr.sinks.sql.SqlCommittableSerializer;
import io.skippr.sinks.sql.SqlWriterState;
import io.skippr.sources.postgres.ColumnInfo;
import io.skippr.sources.postgres.CursorWindow;
import io.skippr.sources.postgres.PostgresEnumeratorState;
import io.skippr.sources.postgres.PostgresEnumeratorStateSerializer;
import io.skippr.sources.postgres.PostgresSplit;
import io.skippr.sources.postgres.PostgresSplitSerializer;
import io.skippr.sources.postgres.TableInfo;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pins the bytes Skippr's state serializers write, as savepoints and checkpoints hold them, in
 * {@code src/test/resources/state-golden/<name>.v<version>.bin}. A change to an encoding fails here
 * before a user's savepoint of an earlier Skippr is misread: bump the serializer's version, keep a
 * reader for the old one, and add the new version's file ({@code -Dskippr.writeGolden=true} writes
 * the missing ones). The files of earlier versions stay and must still be read.
 */
class StateGoldenBytesTest {
    private static final Path FOLDER = Path.of("src/test/resources/state-golden");
    private static final boolean WRITE = Boolean.getBoolean("skippr.writeGolden");

    /** A serializer under test: its state's name, its version, a sample, and how to (de)code. */
    record Golden(String name, int version, Object sample, Codec codec) {
        @Override
        public String toString() {
            return name + " v" + version;
        }
    }

    interface Codec {
        byte[] write(Object value) throws IOException;

        Object read(int version, byte[] bytes) throws IOException;
    }

    static List<Golden> serializers() {
        StreamSchema schema =
                new StreamSchema(
                        "orders",
                        List.of(
                                Column.of("id", DataType.INT64),
                                new Column("amount", DataType.decimal(12, 2), false),
                                Column.of("note", DataType.STRING),
                                Column.of("day", DataType.DATE),
                                Column.of("at", DataType.TIMESTAMP_TZ),
                                Column.of("ref", DataType.UUID)),
                        List.of("id"),
                        "at");
        Row row =
                new Row(
                        "orders",
                        2,
                        Operation.UPDATE,
                        new Object[] {
                            42L,
                            new BigDecimal("12.50"),
                            "ünï \"x\"",
                            LocalDate.of(2026, 12, 2),
                            Instant.ofEpochSecond(1_764_633_600L, 123_000),
                            new UUID(1, 2)
                        },
                        "orders/42/2026-12-02",
                        "0f1e2d3c",
                        1_764_633_600_000_000L);
        TableInfo table =
                new TableInfo(
                        "app",
                        "orders",
                        List.of(
                                new ColumnInfo(
                                        "id",
                                        DataType.INT64,
                                        false,
                                        "bigint",
                                        "\"pg_catalog\".\"int8\"",
                                        true),
                                new ColumnInfo(
                                        "updated_at",
                                        DataType.TIMESTAMP_TZ,
                                        true,
                                        "timestamp with time zone",
                                        "\"pg_catalog\".\"timestamptz\"",
                                        true)),
                        List.of("id"),
                        "updated_at");
        PostgresSplit split =
                new PostgresSplit(
                        "orders#3",
                        table,
                        10L,
                        null,
                        new CursorWindow("2026-12-01 10:00:00+00", "2026-12-02 10:00:00+00", true),
                        List.of("17"),
                        17,
                        null,
                        List.of(4_000_000_000L, 9L));
        Map<String, String> upper = new LinkedHashMap<>();
        upper.put("app.orders", "2026-12-02 10:00:00+00");
        upper.put("app.empty", null);
        PostgresEnumeratorState enumerator =
                new PostgresEnumeratorState(
                        true,
                        List.of(table),
                        upper,
                        List.of(split),
                        4,
                        Map.of("app.orders", List.of("2026-12-01 10:00:00+00")),
                        List.of("orders#3"));
        SqlCommittable committable =
                new SqlCommittable(
                        SqlCommittable.Kind.ROWS,
                        3,
                        1,
                        2,
                        40,
                        5,
                        7,
                        "orders",
                        schema,
                        "_skippr_stage_orders_3_1_40_7",
                        99,
                        "2026-12-02 10:00:00+00",
                        "TIMESTAMP_TZ",
                        "2026-12-01 10:00:00+00",
                        0x0123456789abcdefL);
        return List.of(
                new Golden("source-record-row", 1, row, typed(SourceRecordSerializer.INSTANCE)),
                new Golden(
                        "source-record-schema",
                        1,
                        new SchemaChange(schema),
                        typed(SourceRecordSerializer.INSTANCE)),
                new Golden(
                        "deadletter",
                        1,
                        new Deadletter(
                                "orders",
                                "orders",
                                Deadletter.LOAD,
                                "org.postgresql.util.PSQLException",
                                "value too long",
                                1_764_633_600_000_000L,
                                "orders/42",
                                "{\"id\":42}"),
                        typed(DeadletterSerializer.INSTANCE)),
                versioned("postgres-split", split, PostgresSplitSerializer.INSTANCE),
                versioned(
                        "postgres-enumerator",
                        enumerator,
                        PostgresEnumeratorStateSerializer.INSTANCE),
                versioned("sql-committable", committable, new SqlCommittableSerializer()),
                versioned(
                        "sql-writer-state",
                        new SqlWriterState(3, 1, 40, 8),
                        new SqlWriterState.Serializer()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serializers")
    void theCurrentVersionWritesThePinnedBytesAndReadsThem(Golden golden) throws IOException {
        Path file = FOLDER.resolve(golden.name() + ".v" + golden.version() + ".bin");
        byte[] written = golden.codec().write(golden.sample());
        if (WRITE && !Files.exists(file)) {
            Files.createDirectories(FOLDER);
            Files.write(file, written);
        }
        assertThat(file)
                .as(
                        "no golden bytes for %s: run this test with -Dskippr.writeGolden=true and"
                                + " commit %s",
                        golden, file)
                .exists();
        byte[] pinned = Files.readAllBytes(file);
        assertThat(written)
                .as(
                        "%s now writes other bytes than %s, which savepoints of earlier Skippr"
                                + " versions hold: bump the serializer's version, keep a reader"
                                + " for version %d, and pin the new version's bytes",
                        golden, file, golden.version())
                .isEqualTo(pinned);
        assertThat(golden.codec().write(golden.codec().read(golden.version(), pinned)))
                .as("%s reads %s back to the same value", golden, file)
                .isEqualTo(pinned);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serializers")
    void everyEarlierVersionPinnedIsStillRead(Golden golden) throws IOException {
        Pattern versions = Pattern.compile(Pattern.quote(golden.name()) + "\\.v(\\d+)\\.bin");
        List<Integer> earlier = new ArrayList<>();
        try (var files = Files.list(FOLDER)) {
            for (Path f : files.toList()) {
                Matcher m = versions.matcher(f.getFileName().toString());
                if (m.matches() && Integer.parseInt(m.group(1)) < golden.version()) {
                    earlier.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        for (int version : earlier) {
            byte[] bytes =
                    Files.readAllBytes(FOLDER.resolve(golden.name() + ".v" + version + ".bin"));
            assertThat(golden.codec().read(version, bytes))
                    .as("%s reads the state version %d wrote", golden, version)
                    .isNotNull();
        }
    }

    private static <T> Golden versioned(
            String name, T sample, SimpleVersionedSerializer<T> serializer) {
        return new Golden(
                name,
                serializer.getVersion(),
                sample,
                new Codec() {
                    @Override
                    @SuppressWarnings("unchecked")
                    public byte[] write(Object value) throws IOException {
                        return serializer.serialize((T) value);
                    }

                    @Override
                    public Object read(int version, byte[] bytes) throws IOException {
                        return serializer.deserialize(version, bytes);
                    }
                });
    }

    /**
     * Flink {@link TypeSerializer}s of records: their snapshot names no encoding version, so the
     * files say v1. Records are in no operator's state today (unaligned checkpoints are off), but a
     * change to their bytes must be made on purpose.
     */
    private static <T> Codec typed(TypeSerializer<T> serializer) {
        return new Codec() {
            @Override
            @SuppressWarnings("unchecked")
            public byte[] write(Object value) throws IOException {
                DataOutputSerializer out = new DataOutputSerializer(256);
                serializer.serialize((T) value, out);
                return out.getCopyOfBuffer();
            }

            @Override
            public Object read(int version, byte[] bytes) throws IOException {
                DataInputDeserializer in = new DataInputDeserializer(bytes);
                T value = serializer.deserialize(in);
                if (in.available() != 0) {
                    throw new IOException(in.available() + " bytes left after the value");
                }
                return value;
            }
        };
    }
}
