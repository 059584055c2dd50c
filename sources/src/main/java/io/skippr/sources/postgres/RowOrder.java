package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The order a split reads its table's rows in, and what a read resumes after: the primary key, or
 * for a table without one, each row's address: its table's (or partition's) oid and {@code ctid},
 * with the relation file the address is one of. A row keeps its address until it is updated or
 * deleted; a rewrite of the table (VACUUM FULL, CLUSTER, TRUNCATE, a column type change) gives
 * every row a new one in a new file, which the file node tells. A view, a materialized view or a
 * foreign table is read as having no addresses (nor transaction ids): one without a key is read in
 * the order of all its columns and resumed by the number of rows read, exact only while its rows do
 * not change.
 *
 * <p>A row's resume key is its key values as PostgreSQL text, in key order; for an address, the
 * oid, the {@code ctid} and the file node.
 */
final class RowOrder {
    /** The address's parts compared: the oid and the {@code ctid}. */
    private static final List<String> ADDRESS = List.of("tableoid", "ctid");

    private static final List<String> ADDRESS_TYPES = List.of("oid", "tid");

    private final TableInfo table;
    private final boolean stored;
    private final boolean addressed;

    private RowOrder(TableInfo table, boolean stored, boolean addressed) {
        this.table = table;
        this.stored = stored;
        this.addressed = addressed;
    }

    /**
     * @param stored whether the relation stores its rows, with addresses and transaction ids that
     *     keep their meaning (a table, a partitioned table; not a view or a foreign table, nor a
     *     materialized view, whose every refresh writes all its rows anew and which cannot be
     *     locked)
     */
    static RowOrder of(TableInfo table, boolean stored) {
        return new RowOrder(table, stored, stored);
    }

    /**
     * This order for {@code split}: a split of an earlier version of a table without a key, read in
     * part by number (no last key), goes on by number to its end.
     */
    RowOrder of(PostgresSplit split) {
        return byAddress() && split.lastKey() == null && split.rowsEmitted() > 0
                ? new RowOrder(table, stored, false)
                : this;
    }

    /** The order of a relation that stores its rows, as a position with an address tells. */
    static RowOrder of(TableInfo table) {
        return of(table, true);
    }

    /** Whether rows are ordered by their address: a table without a key. */
    boolean byAddress() {
        return table.primaryKey().isEmpty() && addressed;
    }

    /**
     * Whether rows are ordered by all columns and resumed by number: a view without a key, or a
     * split of an earlier version ({@link #of(PostgresSplit)}).
     */
    boolean byNumber() {
        return table.primaryKey().isEmpty() && !addressed;
    }

    /** Whether rows carry transaction ids ({@code xmin}), by which late commits are read. */
    boolean stored() {
        return stored;
    }

    /**
     * Whether the relation of {@code table} stores its rows ({@link #of(TableInfo, boolean)});
     * false when it is gone.
     */
    static boolean stored(Connection c, TableInfo table) throws SQLException {
        try (PreparedStatement st =
                c.prepareStatement(
                        "SELECT relkind IN ('r', 'p') FROM pg_catalog.pg_class"
                                + " WHERE oid = to_regclass(?)")) {
            st.setString(1, table.qualifiedName());
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /**
     * The expressions a query selects, as text, after the columns: a row's resume key, but for key
     * columns whose value's Java text is their PostgreSQL text already ({@link #keyTextIsValue}).
     */
    List<String> select(String alias) {
        if (!byAddress()) {
            return table.primaryKey().stream()
                    .filter(k -> !keyTextIsValue(table.column(k)))
                    .map(k -> column(alias, k) + "::text")
                    .toList();
        }
        return List.of(
                alias + ".tableoid::text",
                alias + ".ctid::text",
                "pg_relation_filenode(" + alias + ".tableoid)::text");
    }

    /**
     * Whether a key column's text is its value's Java text: integers, which a primary key never
     * holds as NULL. Their text is not selected.
     */
    static boolean keyTextIsValue(ColumnInfo column) {
        return switch (column.type().kind()) {
            case INT16, INT32, INT64 -> true;
            default -> false;
        };
    }

    /** The ORDER BY list. */
    String orderBy(String alias) {
        return compared(alias).stream().collect(Collectors.joining(", "));
    }

    /**
     * The order compared with resume key {@code last} by {@code op}: {@code "k" op ?} or {@code
     * ("a", "b") op (?, ?)}, cast from text.
     */
    String compare(String alias, List<String> last, String op, List<Object> params) {
        List<String> compared = compared(alias);
        List<String> types = types();
        if (last.size() != (byAddress() ? 3 : compared.size())) {
            throw new IllegalStateException(
                    "split state of "
                            + table.qualifiedName()
                            + " has a resume key of "
                            + last.size()
                            + " values for "
                            + (byAddress() ? "a row address" : "a key of " + types.size())
                            + " columns");
        }
        params.addAll(last.subList(0, compared.size()));
        List<String> values = types.stream().map(t -> "?::" + t).toList();
        return compared.size() == 1
                ? compared.get(0) + " " + op + " " + values.get(0)
                : "("
                        + String.join(", ", compared)
                        + ") "
                        + op
                        + " ("
                        + String.join(", ", values)
                        + ")";
    }

    /**
     * {@link #compare}, for a part of late commits read up to or after {@code last}: an address in
     * the last row's table or partition compares only while it is the file it was read in, so that
     * after a rewrite the part is read again rather than mistaken for other rows.
     */
    String compareRead(String alias, List<String> last, String op, List<Object> params) {
        String compared = compare(alias, last, op, params);
        if (!byAddress()) {
            return compared;
        }
        // only addresses in the last row's table or partition change with its rewrite; those in
        // the others compare by their oid alone
        params.add(last.get(0));
        params.add(fileNode(last));
        return "("
                + compared
                + " AND ("
                + alias
                + ".tableoid <> ?::oid OR pg_relation_filenode("
                + alias
                + ".tableoid)::text = ?))";
    }

    /** The types the compared values are cast to from text. */
    List<String> types() {
        return byAddress()
                ? ADDRESS_TYPES
                : table.primaryKey().stream().map(k -> table.column(k).castType()).toList();
    }

    /**
     * The file node an address resume key {@code last} was read in, for {@link #rewritten}; null
     * for a key.
     */
    String fileNode(List<String> last) {
        return byAddress() ? last.get(2) : null;
    }

    /**
     * The query that returns whether the relation of oid {@code ?} has been rewritten since its
     * file node was {@code ?}: its file node differs, or it is gone. Both parameters are text.
     */
    static String rewritten() {
        return "SELECT pg_relation_filenode(?::oid)::text IS DISTINCT FROM ?";
    }

    private List<String> compared(String alias) {
        List<String> names = byAddress() ? ADDRESS : table.primaryKey();
        List<String> compared = new ArrayList<>(names.size());
        for (String name : names) {
            compared.add(byAddress() ? alias + "." + name : column(alias, name));
        }
        return compared;
    }

    private static String column(String alias, String name) {
        return alias + "." + Sql.quote(name);
    }

    /** A row's position text after {@code table|}: {@code #oid(page,item)@filenode}. */
    static String addressPosition(List<String> key) {
        return "#" + key.get(0) + key.get(1) + "@" + key.get(2);
    }

    /**
     * The resume key of an address position text ({@link #addressPosition}); null for a position of
     * an earlier version ({@code #n}, the row's number in the all-columns order).
     */
    static List<String> addressOf(String text) {
        int open = text.indexOf('(');
        int close = text.indexOf(')');
        int at = text.indexOf('@');
        if (!text.startsWith("#") || open < 0 || close < open || at != close + 1) {
            return null;
        }
        return List.of(
                text.substring(1, open), text.substring(open, close + 1), text.substring(at + 1));
    }
}
