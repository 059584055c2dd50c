package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

/**
 * The query that reads a split, run as {@code COPY (SELECT ...) TO STDOUT (FORMAT binary)}: every
 * column ({@link BinaryColumns}), then a row's resume key as text, then an undecodable row's text;
 * in the order of that key ({@link RowOrder}), resuming after the split's progress. COPY takes no
 * parameters: they are written into the SQL as literals ({@link #inline}).
 */
final class SplitQuery {
    /** The table's alias: columns are qualified, so no output column name shadows them. */
    static final String ALIAS = "src";

    private final String sql;
    private final List<Object> params;

    private SplitQuery(String sql, List<Object> params) {
        this.sql = sql;
        this.params = params;
    }

    /**
     * @param xmax the 64-bit xmax of the snapshot the query runs in, for a late-commit split: its
     *     bands' rows are read up to it; null for any other split
     */
    static SplitQuery of(PostgresSplit split, Long xmax, RowOrder order) {
        TableInfo table = split.table();
        List<Object> params = new ArrayList<>();
        List<String> select = new ArrayList<>();
        for (ColumnInfo column : table.columns()) {
            select.add(BinaryColumns.select(column, ALIAS));
        }
        select.addAll(order.select(ALIAS));
        String undecodable = BinaryColumns.undecodableText(table, ALIAS);
        if (undecodable != null) {
            select.add(undecodable);
        }
        List<String> where = conditions(split, xmax, order, params);
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(String.join(", ", select));
        sql.append(" FROM ").append(table.qualifiedName()).append(" AS ").append(ALIAS);
        if (!where.isEmpty()) {
            sql.append(" WHERE ").append(String.join(" AND ", where));
        }
        if (order.byNumber() && !table.columns().isEmpty()) {
            sql.append(" ORDER BY ")
                    .append(
                            table.columns().stream()
                                    .map(c -> c.orderExpression(ALIAS))
                                    .collect(Collectors.joining(", ")));
            if (split.rowsEmitted() > 0) {
                sql.append(" OFFSET ?");
                params.add(split.rowsEmitted());
            }
        } else if (!order.byNumber()) {
            sql.append(" ORDER BY ").append(order.orderBy(ALIAS));
        }
        return new SplitQuery(sql.toString(), params);
    }

    /**
     * What a row of alias {@code src} must meet for {@code split}'s read to take it (see {@link
     * #of}): all of these conditions; parameters go to {@code params}.
     */
    static List<String> conditions(
            PostgresSplit split, Long xmax, RowOrder order, List<Object> params) {
        List<String> where = new ArrayList<>(scope(split, params));
        if (split.lastKey() != null) {
            where.add(order.compare(ALIAS, split.lastKey(), ">", params));
        }
        if (split.late() != null) {
            where.add(lateCommits(split.table(), split.late(), xmax, params));
        }
        return where;
    }

    /**
     * The rows of {@code split}'s table its read can take at all, as conditions on alias {@code
     * src}: its key range and cursor window (none for a late-commit split); parameters go to {@code
     * params}.
     */
    static List<String> scope(PostgresSplit split, List<Object> params) {
        List<String> where = keyRange(split, params);
        CursorWindow window = split.window();
        if (window != null) {
            ColumnInfo cursor = split.table().column(split.table().cursorColumn());
            String column = column(cursor.name());
            if (window.after() != null) {
                where.add(column + " > ?::" + cursor.castType());
                params.add(window.after());
            }
            if (window.upTo() != null) {
                String upTo = column + " <= ?::" + cursor.castType();
                where.add(window.includeNull() ? "(" + column + " IS NULL OR " + upTo + ")" : upTo);
                params.add(window.upTo());
            } else {
                where.add(window.includeNull() ? column + " IS NULL" : "FALSE");
            }
        }
        return where;
    }

    /**
     * The rows a late read of what {@code split}'s read could not see may take ({@link
     * #lateCommits}): its key range, and cursor values up to its window's top; the whole table for
     * a late-commit split.
     */
    static List<String> lateScope(PostgresSplit split, List<Object> params) {
        List<String> where = keyRange(split, params);
        CursorWindow window = split.window();
        if (window != null && window.upTo() != null) {
            ColumnInfo cursor = split.table().column(split.table().cursorColumn());
            where.add(column(cursor.name()) + " <= ?::" + cursor.castType());
            params.add(window.upTo());
        }
        return where;
    }

    private static List<String> keyRange(PostgresSplit split, List<Object> params) {
        List<String> where = new ArrayList<>();
        TableInfo table = split.table();
        if (!table.primaryKey().isEmpty()) {
            String key = column(table.primaryKey().get(0));
            if (split.keyFrom() != null) {
                where.add(key + " >= ?");
                params.add(split.keyFrom());
            }
            if (split.keyTo() != null) {
                where.add(key + " < ?");
                params.add(split.keyTo());
            }
        }
        return where;
    }

    /** Binds {@code params} (Long or String) to {@code statement} from its first parameter. */
    static void bind(PreparedStatement statement, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p instanceof Long l) {
                statement.setLong(i + 1, l);
            } else {
                statement.setString(i + 1, (String) p);
            }
        }
    }

    /**
     * Rows an earlier read could not see because their transaction was in progress or had no id
     * yet: per read, its key range, cursor values up to its window's top, and {@code xmin} one of
     * its transactions or in its band up to {@code xmax}; not the parts of them read already
     * ({@link ReadEntry#read}). Read in key order, so a split cancelled while it read has read, of
     * the transactions its snapshot saw committed, the rows up to its last key.
     */
    private static String lateCommits(
            TableInfo table, List<ReadEntry> reads, Long xmax, List<Object> params) {
        List<String> any = new ArrayList<>();
        for (ReadEntry read : reads) {
            if (!read.open()) {
                continue;
            }
            List<String> all = new ArrayList<>();
            all.add(
                    transactions(
                            read.xids(),
                            read.band() == null ? null : read.band().from(),
                            xmax,
                            List.of(),
                            params));
            if (read.keyFrom() != null) {
                all.add(column(table.primaryKey().get(0)) + " >= ?");
                params.add(read.keyFrom());
            }
            if (read.keyTo() != null) {
                all.add(column(table.primaryKey().get(0)) + " < ?");
                params.add(read.keyTo());
            }
            if (read.upTo() != null) {
                ColumnInfo cursor = table.column(table.cursorColumn());
                all.add(column(cursor.name()) + " <= ?::" + cursor.castType());
                params.add(read.upTo());
            }
            for (ReadEntry.Part part : read.read()) { // read by a late-commit split cancelled
                String of =
                        transactions(part.xids(), part.from(), part.to(), part.except(), params);
                String below =
                        RowOrder.of(table)
                                .compareRead(
                                        ALIAS, part.lastKey(), part.above() ? ">" : "<=", params);
                all.add("NOT (" + of + " AND " + below + ")");
            }
            any.add("(" + String.join(" AND ", all) + ")");
        }
        return any.isEmpty() ? "FALSE" : "(" + String.join(" OR ", any) + ")";
    }

    /**
     * Rows whose {@code xmin} is one of {@code xids}, or (when {@code from} is not null) lies from
     * {@code from} up to {@code to} and is not one of {@code except}. Ids are 64-bit, {@code xmin}
     * 32: the band is compared modulo 2^32, from its start, over its width.
     */
    private static String transactions(
            List<Long> xids, Long from, Long to, List<Long> except, List<Object> params) {
        String xmin = "(" + ALIAS + ".xmin::text::int8)";
        List<String> any = new ArrayList<>();
        if (!xids.isEmpty()) {
            any.add(xmin + " = ANY (?::int8[])");
            params.add(Seen.array(xids));
        }
        if (from != null && to != null && to > from) {
            String band = "((" + xmin + " - ?) & 4294967295) < ?";
            params.add(ReadEntry.xid(from));
            params.add(to - from);
            if (!except.isEmpty()) {
                band += " AND " + xmin + " <> ALL (?::int8[])";
                params.add(Seen.array(except));
            }
            any.add("(" + band + ")");
        }
        return any.isEmpty() ? "FALSE" : "(" + String.join(" OR ", any) + ")";
    }

    static String column(String name) {
        return ALIAS + "." + Sql.quote(name);
    }

    /** The SELECT, its parameters written in as literals. */
    String select() {
        return inline(sql, params);
    }

    /** Starts the query as a binary COPY in {@code connection}'s transaction. */
    CopyOut copy(Connection connection) throws SQLException {
        return connection
                .unwrap(PGConnection.class)
                .getCopyAPI()
                .copyOut("COPY (" + select() + ") TO STDOUT (FORMAT binary)");
    }

    /**
     * {@code sql} with each {@code ?} outside quoted identifiers and string literals replaced by
     * its parameter as a literal: a Long as a number, a String as an escape string literal ({@code
     * E'...'}, backslashes and quotes doubled, so its meaning does not depend on {@code
     * standard_conforming_strings}). The SQL around it gives the literal its type ({@code
     * ?::type}).
     */
    static String inline(String sql, List<Object> params) {
        StringBuilder out = new StringBuilder(sql.length() + 16 * params.size());
        int next = 0;
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0; // a doubled quote closes and opens again
                }
                out.append(ch);
            } else if (ch == '"' || ch == '\'') {
                quote = ch;
                out.append(ch);
            } else if (ch == '?') {
                if (next == params.size()) {
                    throw new IllegalStateException("more placeholders than parameters in " + sql);
                }
                out.append(literal(params.get(next++)));
            } else {
                out.append(ch);
            }
        }
        if (next != params.size()) {
            throw new IllegalStateException("more parameters than placeholders in " + sql);
        }
        return out.toString();
    }

    static String literal(Object param) {
        if (param instanceof Long l) {
            return l < 0 ? "(" + l + ")" : l.toString();
        }
        String text = (String) param;
        StringBuilder out = new StringBuilder(text.length() + 3).append("E'");
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            if (ch == '\'' || ch == '\\') {
                out.append(ch);
            }
            out.append(ch);
        }
        return out.append('\'').toString();
    }
}
