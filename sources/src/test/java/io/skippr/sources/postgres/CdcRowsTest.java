package io.skippr.sources.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.sources.postgres.cdc.Change;
import io.skippr.sources.postgres.cdc.ChangeColumn;
import io.skippr.sources.postgres.cdc.ColumnValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An update that changes the primary key also deletes the old key; other updates do not. */
class CdcRowsTest {
    private static final List<ChangeColumn> COLUMNS =
            List.of(
                    new ChangeColumn("id", true, 20, -1, DataType.INT64),
                    new ChangeColumn("name", false, 25, -1, DataType.STRING));
    private static final TableInfo TABLE =
            CdcRows.withColumns(
                    new TableInfo("s", "items", List.of(), List.of("id"), null), COLUMNS);
    private static final StreamSchema SCHEMA = CdcRows.schema(TABLE);
    private static final ColumnValue NULL =
            new ColumnValue(ColumnValue.State.NULL, null, null, null);

    private static ColumnValue value(Object v) {
        return new ColumnValue(ColumnValue.State.PRESENT, v.toString(), v, null);
    }

    private static Change update(List<ColumnValue> newValues, List<ColumnValue> old, boolean key) {
        return new Change(
                Change.Op.UPDATE,
                "s",
                "items",
                COLUMNS,
                newValues,
                old,
                key,
                7,
                0x1000,
                1,
                Instant.EPOCH);
    }

    @Test
    void anUpdateOfTheKeyDeletesTheOldKeyFirst() {
        Change moved = update(List.of(value(150L), value("x")), List.of(value(20L), NULL), true);
        Row gone = CdcRows.oldKeyDelete(moved, TABLE, SCHEMA, 3);
        Row row = CdcRows.changeRow(moved, TABLE, SCHEMA, 3);

        assertThat(gone.op()).isEqualTo(Operation.DELETE);
        assertThat(Arrays.asList(gone.values()))
                .containsExactly(20L, null, CdcRows.lsn(0x1000, 3), "delete", true);
        assertThat(row.op()).isEqualTo(Operation.UPDATE);
        assertThat(Arrays.asList(row.values()))
                .containsExactly(150L, "x", CdcRows.lsn(0x1000, 3), "update", false);
        assertThat(gone.position()).isEqualTo(row.position() + "|old-key");
    }

    @Test
    void anUpdateUnderReplicaIdentityFullThatKeepsTheKeyDeletesNothing() {
        Change kept =
                update(List.of(value(20L), value("b")), List.of(value(20L), value("a")), false);
        assertThat(CdcRows.oldKeyDelete(kept, TABLE, SCHEMA, 0)).isNull();
    }

    @Test
    void anUpdateWithoutAnOldKeyDeletesNothing() {
        Change plain = update(List.of(value(20L), value("b")), List.of(), false);
        assertThat(CdcRows.oldKeyDelete(plain, TABLE, SCHEMA, 0)).isNull();
    }

    @Test
    void aNumericKeyOfTheSameValueIsTheSameKey() {
        List<ChangeColumn> columns =
                List.of(new ChangeColumn("id", true, 1700, -1, DataType.decimal(10, 2)));
        TableInfo table =
                CdcRows.withColumns(
                        new TableInfo("s", "n", List.of(), List.of("id"), null), columns);
        Change same =
                new Change(
                        Change.Op.UPDATE,
                        "s",
                        "n",
                        columns,
                        List.of(value(new BigDecimal("1.00"))),
                        List.of(value(new BigDecimal("1.0"))),
                        true,
                        7,
                        0x1000,
                        1,
                        Instant.EPOCH);
        assertThat(CdcRows.oldKeyDelete(same, table, CdcRows.schema(table), 0)).isNull();
    }
}
