package io.skippr.sources.localfile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SerializersTest {
    private static final StreamSchema SCHEMA =
            new StreamSchema(
                    "orders",
                    List.of(
                            Column.of("id", DataType.INT64),
                            Column.of("amount", DataType.decimal(12, 2)),
                            Column.of("note", DataType.STRING)),
                    List.of());

    @Test
    void splitRoundTrip() throws IOException {
        FileSplit split = new FileSplit("/data/ø/orders 1.csv", FileFormat.CSV, SCHEMA, 42, 1234);
        FileSplitSerializer s = FileSplitSerializer.INSTANCE;
        FileSplit back = s.deserialize(s.getVersion(), s.serialize(split));
        assertThat(back).isEqualTo(split);
        assertThat(back.schema().version()).isEqualTo(SCHEMA.version());
        assertThat(back.splitId()).isEqualTo("/data/ø/orders 1.csv");

        FileSplit carrying =
                split.at(7, 99, 3).carrying(List.of("{\"file\":\"/data/a.csv\"}", "ø"));
        assertThat(s.deserialize(s.getVersion(), s.serialize(carrying))).isEqualTo(carrying);
        FileSplit ending = carrying.endingAt(4096);
        assertThat(s.deserialize(s.getVersion(), s.serialize(ending))).isEqualTo(ending);
        FileSplit finished = ending.numbered(12).finished("{\"file\":\"/data/a.csv\"}");
        assertThat(s.deserialize(s.getVersion(), s.serialize(finished))).isEqualTo(finished);
        assertThat(finished.report())
                .isEqualTo(new FileRead(split.path(), 12, "{\"file\":\"/data/a.csv\"}"));
    }

    /** A split of version 3 (before split numbers) has none (-1), and is no finished split. */
    @Test
    void aVersionThreeSplitIsUnnumbered() throws IOException {
        FileSplit split = new FileSplit("/d/a.jsonl", FileFormat.JSONL, SCHEMA, 3, 30).endingAt(77);
        byte[] v4 = FileSplitSerializer.INSTANCE.serialize(split.numbered(5));
        byte[] v3 = java.util.Arrays.copyOf(v4, v4.length - Long.BYTES - 1);
        FileSplit back = FileSplitSerializer.INSTANCE.deserialize(3, v3);
        assertThat(back).isEqualTo(split);
        assertThat(back.number()).isEqualTo(-1);
        assertThat(back.isReport()).isFalse();
    }

    /** A split of version 2 (before the end offset) reads to the end of its file. */
    @Test
    void aVersionTwoSplitReadsToTheEnd() throws IOException {
        FileSplit split = new FileSplit("/d/a.jsonl", FileFormat.JSONL, SCHEMA, 3, 30);
        byte[] v4 = FileSplitSerializer.INSTANCE.serialize(split.endingAt(77));
        byte[] v2 = java.util.Arrays.copyOf(v4, v4.length - 2 * Long.BYTES - 1);
        assertThat(FileSplitSerializer.INSTANCE.deserialize(2, v2)).isEqualTo(split);
    }

    @Test
    void enumStateRoundTrip() throws IOException {
        EnumState state =
                new EnumState(
                        SCHEMA,
                        List.of("/d/a.parquet", "/d/b.parquet"),
                        List.of(FileSplit.unread("/d/b.parquet", FileFormat.PARQUET, SCHEMA)),
                        true,
                        java.util.Map.of("/d/a.parquet", "{\"file\":\"/d/a.parquet\"}"));
        EnumStateSerializer s = EnumStateSerializer.INSTANCE;
        assertThat(s.deserialize(s.getVersion(), s.serialize(state))).isEqualTo(state);
        EnumState numbered =
                new EnumState(
                        SCHEMA,
                        List.of("/d/a.parquet", "/d/b.parquet"),
                        List.of(
                                FileSplit.unread("/d/b.parquet", FileFormat.PARQUET, SCHEMA)
                                        .numbered(8)),
                        true,
                        java.util.Map.of(),
                        9,
                        java.util.Map.of("/d/a.parquet", 7L, "/d/b.parquet", 8L));
        assertThat(s.deserialize(s.getVersion(), s.serialize(numbered))).isEqualTo(numbered);
        EnumState initial = EnumState.initial();
        assertThat(s.deserialize(s.getVersion(), s.serialize(initial))).isEqualTo(initial);
    }

    @Test
    void unknownVersionsFailClearly() throws IOException {
        byte[] split =
                FileSplitSerializer.INSTANCE.serialize(
                        FileSplit.unread("/a.csv", FileFormat.CSV, SCHEMA));
        assertThatThrownBy(() -> FileSplitSerializer.INSTANCE.deserialize(6, split))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "Unknown LocalFile split serializer version 6; this Skippr version reads"
                                + " versions 1 to 5");
        assertThatThrownBy(() -> EnumStateSerializer.INSTANCE.deserialize(7, new byte[0]))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "Unknown LocalFile enumerator state serializer version 7; this Skippr"
                                + " version reads versions 1 to 5");
    }
}
