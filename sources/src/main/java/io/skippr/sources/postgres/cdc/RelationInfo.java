package io.skippr.sources.postgres.cdc;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A relation as the stream described it, and how its tuples become column values. */
record RelationInfo(String schema, String table, List<ChangeColumn> columns) {

    static RelationInfo of(PgOutputMessage.Relation r, TypeLookup types) throws SQLException {
        List<ChangeColumn> columns = new ArrayList<>(r.columns().size());
        for (PgOutputMessage.Column c : r.columns()) {
            columns.add(
                    new ChangeColumn(
                            c.name(),
                            c.key(),
                            c.typeOid(),
                            c.typmod(),
                            types.type(c.typeOid(), c.typmod())));
        }
        return new RelationInfo(r.schema(), r.table(), List.copyOf(columns));
    }

    /** A change of this relation in the transaction committing at {@code commitLsn}. */
    Change change(
            Change.Op op,
            List<ColumnValue> newValues,
            List<ColumnValue> oldValues,
            boolean oldIsKey,
            long lsn,
            long commitLsn,
            long xid,
            Instant commitTime) {
        return new Change(
                op,
                schema,
                table,
                columns,
                newValues,
                oldValues,
                oldIsKey,
                lsn,
                commitLsn,
                xid,
                commitTime);
    }

    /**
     * Throws unless {@code tuple} (null for none) has one text, null or unchanged cell per column.
     */
    void check(PgOutputMessage.Tuple tuple) {
        if (tuple == null) {
            return;
        }
        if (tuple.cells().size() != columns.size()) {
            throw new IllegalStateException(
                    "a row of "
                            + schema
                            + "."
                            + table
                            + " has "
                            + tuple.cells().size()
                            + " values for "
                            + columns.size()
                            + " columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            char kind = tuple.cells().get(i).kind();
            if (kind != 'n' && kind != 'u' && kind != 't') {
                throw new IllegalStateException(
                        "binary value of column "
                                + columns.get(i).name()
                                + ": the stream must be started with binary = false");
            }
        }
    }

    /** The values of {@code tuple}, empty for null. */
    List<ColumnValue> values(PgOutputMessage.Tuple tuple) {
        check(tuple);
        if (tuple == null) {
            return List.of();
        }
        List<ColumnValue> values = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            PgOutputMessage.Cell cell = tuple.cells().get(i);
            values.add(value(i, cell.kind(), cell.bytes()));
        }
        return values;
    }

    /** Column {@code index}'s value from a checked cell's kind and bytes. */
    ColumnValue value(int index, char kind, byte[] bytes) {
        return switch (kind) {
            case 'n' -> ColumnValue.NULL;
            case 'u' -> ColumnValue.UNCHANGED;
            default -> {
                String text = new String(bytes, StandardCharsets.UTF_8);
                try {
                    Object value = PgText.parse(columns.get(index).type().kind(), text);
                    yield new ColumnValue(ColumnValue.State.PRESENT, text, value, null);
                } catch (PgText.Unrepresentable e) {
                    yield new ColumnValue(ColumnValue.State.PRESENT, text, null, e.getMessage());
                }
            }
        };
    }
}
