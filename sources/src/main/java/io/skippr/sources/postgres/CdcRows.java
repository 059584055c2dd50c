package io.skippr.sources.postgres;

import io.skippr.core.record.Column;
import io.skippr.core.record.DataType;
import io.skippr.core.record.Operation;
import io.skippr.core.record.Row;
import io.skippr.core.record.StreamSchema;
import io.skippr.sources.postgres.cdc.Change;
import io.skippr.sources.postgres.cdc.ChangeColumn;
import io.skippr.sources.postgres.cdc.ColumnValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The rows of a {@code replication_method: cdc} stream: the table's columns, then {@code
 * _skippr_lsn}, {@code _skippr_op} and {@code _skippr_deleted} (true for a delete's row, false for
 * any other; what {@code append} keeps of a delete, and what {@code merge} with {@code
 * soft_deletes} marks). {@code _skippr_lsn} is the change's place in the WAL as fixed-width hex,
 * the commit LSN of its transaction (16 digits) then its 1-based index in it (8 digits), so text
 * order is commit order; snapshot rows carry the slot's consistent point and index 0, below every
 * change the slot streams. It is the stream's cursor column: a merge keeps, per key, the row with
 * the highest, and never lets an older change overwrite a newer one.
 */
final class CdcRows {
    static final String LSN = "_skippr_lsn";
    static final String OP = "_skippr_op";
    static final String DELETED = "_skippr_deleted";
    static final String SNAPSHOT_OP = "snapshot";

    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    private CdcRows() {}

    /**
     * The stream's schema: the table's columns, {@link #LSN}, {@link #OP} and {@link #DELETED},
     * cursor {@link #LSN}. Columns outside the primary key are nullable: a delete's row carries
     * only the key (under replica identity DEFAULT).
     */
    static StreamSchema schema(TableInfo table) {
        List<Column> columns = new ArrayList<>();
        for (Column c : table.streamSchema().columns()) {
            columns.add(
                    table.primaryKey().contains(c.name())
                            ? c
                            : new Column(c.name(), c.type(), true));
        }
        columns.add(new Column(LSN, DataType.STRING, false));
        columns.add(new Column(OP, DataType.STRING, false));
        columns.add(new Column(DELETED, DataType.BOOLEAN, false));
        return new StreamSchema(table.stream(), columns, table.primaryKey(), LSN);
    }

    /**
     * {@code table} with the columns a Relation message of the stream describes, in its order: the
     * table itself when they are the same names and types, otherwise its next schema version. A
     * column it keeps keeps its catalog description; a column added, or whose type changed, is
     * nullable (its {@code pgType} and {@code castType}, used only to bound snapshot reads, are the
     * Skippr type's name); a column the message lacks was dropped and is left out, as a cursor read
     * of the table would leave it out. The primary key stays.
     */
    static TableInfo withColumns(TableInfo table, List<ChangeColumn> columns) {
        if (columns.size() == table.columns().size()) {
            boolean same = true;
            for (int i = 0; i < columns.size() && same; i++) {
                ColumnInfo known = table.columns().get(i);
                same =
                        known.name().equals(columns.get(i).name())
                                && known.type().equals(columns.get(i).type());
            }
            if (same) {
                return table;
            }
        }
        List<ColumnInfo> evolved = new ArrayList<>(columns.size());
        for (ChangeColumn c : columns) {
            int at = table.indexOf(c.name());
            ColumnInfo known = at < 0 ? null : table.columns().get(at);
            evolved.add(
                    known != null && known.type().equals(c.type())
                            ? known
                            : new ColumnInfo(
                                    c.name(),
                                    c.type(),
                                    true,
                                    c.type().toString(),
                                    c.type().toString(),
                                    false));
        }
        List<String> key =
                table.primaryKey().stream()
                        .filter(k -> columns.stream().anyMatch(c -> c.name().equals(k)))
                        .toList();
        return new TableInfo(table.schema(), table.table(), evolved, key, table.cursorColumn());
    }

    /**
     * The {@link #LSN} text of the {@code index}th change of the transaction committed at {@code
     * commitLsn}.
     */
    static String lsn(long commitLsn, long index) {
        if (index >>> 32 != 0) { // never in practice: 4 billion changes in one transaction
            return String.format(Locale.ROOT, "%016X%08X", commitLsn, index);
        }
        return HEX.toHexDigits(commitLsn) + HEX.toHexDigits((int) index); // once per change
    }

    /**
     * A snapshot row of the table, read in the slot's exported snapshot: at its consistent point.
     */
    static Row snapshotRow(Row row, StreamSchema schema, long consistentPoint) {
        Object[] values = Arrays.copyOf(row.values(), row.values().length + 3);
        values[values.length - 3] = lsn(consistentPoint, 0);
        values[values.length - 2] = SNAPSHOT_OP;
        values[values.length - 1] = false;
        return new Row(
                row.stream(),
                schema.version(),
                Operation.INSERT,
                values,
                row.position(),
                row.id(),
                row.syncedAtMicros());
    }

    /**
     * The row of {@code change}, the {@code index}th of its transaction: an insert or update with
     * its new values, a delete with its old key (or whole old row under REPLICA IDENTITY FULL). A
     * TOASTed value an update left unchanged (PostgreSQL does not send it) is taken from the old
     * row, which REPLICA IDENTITY FULL sends whole.
     *
     * @throws IllegalStateException for an unchanged TOASTed value without the old row: the table
     *     needs REPLICA IDENTITY FULL
     */
    /**
     * For an update that changed the row's primary key: the delete of its old key, which the
     * update's row (of the new key) does not say; null for any other change. PostgreSQL sends the
     * old key of such an update (replica identity DEFAULT) or the whole old row (FULL). The delete
     * has the update's {@code _skippr_lsn} (another key: nothing orders the two) and its position
     * with {@code |old-key}, so each row keeps an id of its own.
     */
    static Row oldKeyDelete(Change change, TableInfo table, StreamSchema schema, long index) {
        if (change.op() != Change.Op.UPDATE
                || change.oldValues().isEmpty()
                || table.primaryKey().isEmpty()) {
            return null;
        }
        boolean moved = false;
        for (String key : table.primaryKey()) {
            for (int i = 0; i < change.columns().size(); i++) {
                if (change.columns().get(i).name().equals(key)) {
                    moved |= !sameKey(change.oldValues().get(i), change.newValues().get(i));
                }
            }
        }
        if (!moved) {
            return null;
        }
        Change delete =
                new Change(
                        Change.Op.DELETE,
                        change.schema(),
                        change.table(),
                        change.columns(),
                        List.of(),
                        change.oldValues(),
                        change.oldIsKey(),
                        change.lsn(),
                        change.commitLsn(),
                        change.xid(),
                        change.commitTime());
        Row row = changeRow(delete, table, schema, index);
        return new Row(
                row.stream(),
                row.schemaVersion(),
                row.op(),
                row.values(),
                row.position() + "|old-key",
                null,
                0);
    }

    /**
     * Whether a key column's old and new values are the same key (a TOASTed one sent unchanged).
     */
    private static boolean sameKey(ColumnValue before, ColumnValue after) {
        if (after.isUnchanged() || Objects.equals(before.text(), after.text())) {
            return true;
        }
        return before.value() instanceof java.math.BigDecimal b
                && after.value() instanceof java.math.BigDecimal a
                && a.compareTo(b) == 0;
    }

    static Row changeRow(Change change, TableInfo table, StreamSchema schema, long index) {
        Operation op =
                switch (change.op()) {
                    case INSERT -> Operation.INSERT;
                    case UPDATE -> Operation.UPDATE;
                    case DELETE -> Operation.DELETE;
                    case TRUNCATE -> throw new IllegalStateException("no row for a truncation");
                };
        List<ColumnValue> values = op == Operation.DELETE ? change.oldValues() : change.newValues();
        List<ColumnValue> old = change.oldIsKey() ? List.of() : change.oldValues();
        Object[] out = new Object[table.columns().size() + 3];
        List<ChangeColumn> columns = change.columns();
        for (int i = 0; i < columns.size(); i++) {
            int at = table.indexOf(columns.get(i).name());
            if (at < 0) { // the caller evolves the table to the change's columns first
                throw new IllegalStateException(
                        "column "
                                + Sql.show(columns.get(i).name())
                                + " of "
                                + table.qualifiedName()
                                + " is not in the stream's schema");
            }
            ColumnValue value = values.isEmpty() ? null : values.get(i);
            if (value != null && value.isUnchanged()) {
                if (old.isEmpty() || old.get(i).isUnchanged()) {
                    throw new IllegalStateException(
                            "an update of "
                                    + table.qualifiedName()
                                    + " left TOASTed column "
                                    + Sql.show(columns.get(i).name())
                                    + " unchanged and PostgreSQL did not send its value: run"
                                    + " ALTER TABLE "
                                    + table.qualifiedName()
                                    + " REPLICA IDENTITY FULL so updates carry the whole old row");
                }
                value = old.get(i);
            }
            out[at] = value == null ? null : value.value();
        }
        String lsn = lsn(change.commitLsn(), index);
        out[out.length - 3] = lsn;
        out[out.length - 2] = op.name().toLowerCase(Locale.ROOT);
        out[out.length - 1] = op == Operation.DELETE;
        return new Row(
                table.stream(), schema.version(), op, out, table.stream() + "|lsn=" + lsn, null, 0);
    }
}
