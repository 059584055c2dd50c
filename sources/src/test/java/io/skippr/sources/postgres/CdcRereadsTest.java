package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import io.skippr.sources.postgres.cdc.Change;
import io.skippr.sources.postgres.cdc.ChangeColumn;
import io.skippr.sources.postgres.cdc.ColumnValue;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which changes of an integer key fall in the parts of a snapshot read again, compared in Java. */
class CdcRereadsTest {
    private static final TableInfo TABLE = PostgresSerializersTest.table(); // key: bigint "id"
    private static final ServerKeyOrder NO_SERVER = new ServerKeyOrder(null);

    private static PostgresSplit split(Long from, Long to, String lastKey) {
        PostgresSplit fresh = PostgresSplit.fresh("s", TABLE, from, to, null);
        return lastKey == null ? fresh : fresh.withProgress(List.of(lastKey), 1, null);
    }

    private static Change insert(long id, long commitLsn) {
        return new Change(
                Change.Op.INSERT,
                TABLE.schema(),
                TABLE.table(),
                List.of(new ChangeColumn("id", true, 20, -1, DataType.INT64)),
                List.of(new ColumnValue(ColumnValue.State.PRESENT, Long.toString(id), id, null)),
                List.of(),
                false,
                commitLsn,
                commitLsn,
                1,
                Instant.EPOCH);
    }

    private static Change delete(long id, long commitLsn) {
        return new Change(
                Change.Op.DELETE,
                TABLE.schema(),
                TABLE.table(),
                List.of(new ChangeColumn("id", true, 20, -1, DataType.INT64)),
                List.of(),
                List.of(new ColumnValue(ColumnValue.State.PRESENT, Long.toString(id), id, null)),
                true,
                commitLsn,
                commitLsn,
                1,
                Instant.EPOCH);
    }

    private static boolean covers(CdcRereads rereads, Change change) throws IOException {
        return rereads.covers(TABLE, change, change.commitLsn(), NO_SERVER);
    }

    @Test
    void aRangeReadAgainDropsItsKeysChangesUpToItsPointOnly() throws IOException {
        // [100, 200) read again at 50; the rest of the table keeps its changes
        CdcRereads rereads = CdcRereads.NONE.plus(split(100L, 200L, null), 50);
        assertThat(covers(rereads, insert(100, 50))).isTrue();
        assertThat(covers(rereads, delete(199, 10))).isTrue();
        assertThat(covers(rereads, insert(150, 51))).isFalse();
        assertThat(covers(rereads, insert(99, 10))).isFalse();
        assertThat(covers(rereads, insert(200, 10))).isFalse();
    }

    @Test
    void aSplitReadInPartIsReadAgainAfterItsLastKey() throws IOException {
        CdcRereads rereads = CdcRereads.NONE.plus(split(null, 200L, "120"), 50);
        assertThat(covers(rereads, insert(120, 10))).isFalse(); // read before the restore
        assertThat(covers(rereads, insert(121, 10))).isTrue();
        assertThat(covers(rereads, insert(Long.MIN_VALUE, 10))).isFalse();
    }

    @Test
    void aKeyInPartsOfTwoRestoresTakesTheHigherPoint() throws IOException {
        CdcRereads rereads =
                CdcRereads.NONE
                        .plus(split(100L, 200L, null), 50)
                        .plus(split(100L, 200L, "150"), 80);
        assertThat(covers(rereads, insert(120, 70))).isFalse(); // read again at 50, before 70
        assertThat(covers(rereads, insert(160, 70))).isTrue(); // its rest read at 80
        assertThat(covers(rereads, insert(160, 81))).isFalse();
    }

    @Test
    void aTableWithoutKeyReadInPartKeepsItsChanges() throws IOException {
        TableInfo keyless = new TableInfo("s", "t", TABLE.columns(), List.of(), null);
        PostgresSplit part =
                PostgresSplit.fresh("k", keyless, null, null, null)
                        .withProgress(List.of("1", "(0,1)", "2"), 1, null);
        assertThat(CdcRereads.NONE.plus(part, 50)).isEqualTo(CdcRereads.NONE);
        CdcRereads whole =
                CdcRereads.NONE.plus(PostgresSplit.fresh("k", keyless, null, null, null), 50);
        assertThat(whole.parts()).hasSize(1);
    }
}
