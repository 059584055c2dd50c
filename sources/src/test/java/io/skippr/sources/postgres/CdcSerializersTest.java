package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** CDC splits and enumerator states with added tables, and states written before them. */
class CdcSerializersTest {
    private static final TableInfo TABLE = PostgresSerializersTest.table();

    private static CdcAddedTables added() {
        TableInfo other = new TableInfo("s", "extra", TABLE.columns(), TABLE.primaryKey(), null);
        return CdcAddedTables.NONE
                .plus(List.of(other), 0x1234_5678L, true)
                .reread(PostgresSplit.fresh("s0", TABLE, 10L, 20L, null), 0x2000L)
                .reread(
                        PostgresSplit.fresh("s1", TABLE, null, null, null)
                                .withProgress(List.of("15"), 3, null),
                        0x3000L);
    }

    @Test
    void aStreamSplitKeepsItsAddedTablesAndWhichAreHeld() throws IOException {
        CdcSplit split =
                CdcSplit.stream(List.of(TABLE), 100, 90, -1)
                        .withAdded(added())
                        .withStream(120, 130, 7);
        CdcSplitSerializer serializer = CdcSplitSerializer.INSTANCE;
        CdcSplit back =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(split));
        assertThat(back).isEqualTo(split);
        assertThat(back.tables())
                .extracting(TableInfo::stream)
                .containsExactly(TABLE.stream(), "extra");
        assertThat(back.added().consistentPoint("extra")).isEqualTo(0x1234_5678L);
        assertThat(back.added().consistentPoint(TABLE.stream())).isZero();
        assertThat(back.added().rereads().parts())
                .containsExactly(
                        new CdcRereads.Part(TABLE.stream(), 10L, 20L, null, 0x2000L),
                        new CdcRereads.Part(TABLE.stream(), null, null, List.of("15"), 0x3000L));
        assertThat(back.positionedTables()).containsExactly(TABLE);
        CdcSplit released = back.withAdded(back.added().released());
        assertThat(released.positionedTables()).hasSize(2);
        assertThat(released.tables()).hasSize(2);
    }

    @Test
    void anEnumeratorStateKeepsItsStreamsAndAddedTables() throws IOException {
        CdcEnumeratorState state =
                new CdcEnumeratorState(
                        true,
                        List.of(CdcSplit.stream(List.of(TABLE), 5, 5, -1)),
                        List.of("add1.0"),
                        true,
                        List.of(TABLE.stream(), "extra"),
                        added());
        CdcEnumeratorState.Serializer serializer = CdcEnumeratorState.Serializer.INSTANCE;
        CdcEnumeratorState back =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(state));
        assertThat(back).isEqualTo(state);
        assertThat(back.added().held()).isEqualTo(Set.of("extra"));
    }

    /** A state of version 1 knows no streams: a restore adds no table (as before). */
    @Test
    void aVersionOneStateHasUnknownStreams() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeBoolean(true);
        out.writeInt(0);
        PostgresSerde.writeStrings(List.of(), out);
        out.writeBoolean(true);
        CdcEnumeratorState back =
                CdcEnumeratorState.Serializer.INSTANCE.deserialize(1, out.getCopyOfBuffer());
        assertThat(back.streams()).isNull();
        assertThat(back.added()).isEqualTo(CdcAddedTables.NONE);
        assertThat(back.streamReleased()).isTrue();
    }

    /** A state of version 2 knows no parts read again. */
    @Test
    void aVersionTwoStateHasNoRereads() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeBoolean(true);
        out.writeInt(0);
        PostgresSerde.writeStrings(List.of("s0"), out);
        out.writeBoolean(false);
        out.writeBoolean(true);
        PostgresSerde.writeStrings(List.of(TABLE.stream()), out);
        out.writeInt(0); // no added table, and no rereads after
        CdcEnumeratorState back =
                CdcEnumeratorState.Serializer.INSTANCE.deserialize(2, out.getCopyOfBuffer());
        assertThat(back.unread()).containsExactly("s0");
        assertThat(back.added()).isEqualTo(CdcAddedTables.NONE);
    }

    @Test
    void temporarySlotNamesAreValidAndUnique() {
        String longest = "s".repeat(63);
        String a = CdcSplitEnumerator.temporarySlotName(longest);
        String b = CdcSplitEnumerator.temporarySlotName(longest);
        assertThat(a).matches("[a-z0-9_]{1,63}").startsWith("s".repeat(45) + "_add_");
        assertThat(a).isNotEqualTo(b);
    }
}
