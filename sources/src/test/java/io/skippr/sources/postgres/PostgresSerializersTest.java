package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.DataType;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostgresSerializersTest {

    static TableInfo table() {
        return new TableInfo(
                "sch \"ü\"",
                "Orders \"x\"",
                List.of(
                        new ColumnInfo(
                                "id",
                                DataType.INT64,
                                false,
                                "bigint",
                                "\"pg_catalog\".\"int8\"",
                                true),
                        new ColumnInfo(
                                "amount",
                                DataType.decimal(12, 3),
                                true,
                                "numeric(12,3)",
                                "\"pg_catalog\".\"numeric\"",
                                true),
                        new ColumnInfo(
                                "tags",
                                DataType.STRING,
                                true,
                                "text[]",
                                "\"pg_catalog\".\"_text\"",
                                false),
                        new ColumnInfo(
                                "updated at",
                                DataType.TIMESTAMP_TZ,
                                true,
                                "timestamp with time zone",
                                "\"pg_catalog\".\"timestamptz\"",
                                true)),
                List.of("id"),
                "updated at");
    }

    @Test
    void splitsRoundTrip() throws IOException {
        TableInfo table = table();
        List<PostgresSplit> splits =
                List.of(
                        PostgresSplit.fresh("t#0", table, null, null, null),
                        PostgresSplit.fresh("t#1", table, -5L, Long.MAX_VALUE, null),
                        new PostgresSplit(
                                "t#2",
                                table,
                                10L,
                                null,
                                new CursorWindow(null, "2024-05-01 10:00:00+00", true),
                                List.of("42"),
                                17,
                                null,
                                List.of(4_000_000_000L, 9L)),
                        new PostgresSplit(
                                "t#3",
                                new TableInfo("s", "nokey", table.columns(), List.of(), null),
                                null,
                                null,
                                new CursorWindow("a", null, false),
                                null,
                                123_456_789_012L,
                                null,
                                null),
                        new PostgresSplit(
                                "t#4",
                                new TableInfo(
                                        "s",
                                        "composite",
                                        table.columns(),
                                        List.of("id", "tags"),
                                        null),
                                null,
                                null,
                                null,
                                List.of("1", "{\"a b\",c}"),
                                2,
                                null,
                                List.of()),
                        PostgresSplit.lateCommits(
                                "t#5",
                                table,
                                List.of(
                                        new ReadEntry("17", 1L, 50L, List.of(4_000_000_000L, 7L)),
                                        new ReadEntry(null, null, null, List.of()))),
                        PostgresSplit.fresh("t#6", table, null, null, null).finished(null),
                        PostgresSplit.fresh("t#7", table, 1L, 9L, new CursorWindow("a", "b", false))
                                .withProgress(
                                        List.of("8"),
                                        3,
                                        new Unseen(
                                                List.of(5L),
                                                new XidBand(4_000_000_001L, List.of("3/17")),
                                                List.of(
                                                        new ReadEntry.Part(
                                                                List.of("3"),
                                                                List.of(5L),
                                                                4_000_000_001L,
                                                                4_000_000_009L,
                                                                List.of(4_000_000_004L),
                                                                true))))
                                .finished(new ReadEntry("b", 1L, 9L, List.of(5L)).toLine()));
        PostgresSplitSerializer serializer = PostgresSplitSerializer.INSTANCE;
        for (PostgresSplit split : splits) {
            byte[] bytes = serializer.serialize(split);
            assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(split);
        }
    }

    @Test
    void enumeratorStateRoundTrips() throws IOException {
        TableInfo table = table();
        Map<String, String> upper = new LinkedHashMap<>();
        upper.put("Orders \"x\"", "2024-05-01 10:00:00+00");
        upper.put("empty", null);
        PostgresEnumeratorState state =
                new PostgresEnumeratorState(
                        true,
                        List.of(table, new TableInfo("s", "empty", List.of(), List.of(), null)),
                        upper,
                        List.of(
                                PostgresSplit.fresh(
                                        "a#7", table, 1L, 100L, new CursorWindow("x", "y", false))),
                        8,
                        Map.of(
                                "Orders \"x\"",
                                List.of(new ReadEntry("7", 1L, 9L, List.of(4L)).toLine())),
                        List.of("a#7", "a#6"));
        PostgresEnumeratorStateSerializer serializer = PostgresEnumeratorStateSerializer.INSTANCE;
        PostgresEnumeratorState back =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
        assertThat(back).isEqualTo(state);
        assertThat(back.upper()).containsEntry("empty", null);

        // version 1 ended after the pending splits: no late reads, no outstanding splits
        PostgresEnumeratorState initial = PostgresEnumeratorState.initial();
        byte[] v2 = serializer.serialize(initial);
        assertThat(serializer.deserialize(1, java.util.Arrays.copyOf(v2, v2.length - 8)))
                .isEqualTo(initial);
    }

    @Test
    void unknownVersionsFailClearly() throws IOException {
        byte[] split =
                PostgresSplitSerializer.INSTANCE.serialize(
                        PostgresSplit.fresh("x", table(), null, null, null));
        assertThatThrownBy(() -> PostgresSplitSerializer.INSTANCE.deserialize(99, split))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 99")
                .hasMessageContaining("reads versions 1 to 4");
        byte[] state =
                PostgresEnumeratorStateSerializer.INSTANCE.serialize(
                        PostgresEnumeratorState.initial());
        assertThatThrownBy(() -> PostgresEnumeratorStateSerializer.INSTANCE.deserialize(0, state))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("version 0");
        // version 3 had no band nor parts (5 bytes) before the report of a finished split (1),
        // version 2 none of them
        for (int version = 3; version >= 2; version--) {
            assertThat(
                            PostgresSplitSerializer.INSTANCE.deserialize(
                                    version, Arrays.copyOf(split, split.length - (8 - version))))
                    .isEqualTo(PostgresSplit.fresh("x", table(), null, null, null));
        }
        byte[] truncated = Arrays.copyOf(split, split.length - 9);
        assertThatThrownBy(() -> PostgresSplitSerializer.INSTANCE.deserialize(1, truncated))
                .isInstanceOf(IOException.class);
    }
}
