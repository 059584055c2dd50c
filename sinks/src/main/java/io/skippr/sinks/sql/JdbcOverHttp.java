package io.skippr.sinks.sql;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.List;

/**
 * What the JDBC adapters over a warehouse's HTTP API share (Databricks' Statement Execution API,
 * BigQuery's query jobs): proxies of the few JDBC interfaces the SQL family calls, a forward-only
 * {@link ResultSet} of text values, and {@code ?} markers rewritten as the API's named parameters.
 * Any other JDBC method fails with {@link SQLFeatureNotSupportedException} naming the API.
 *
 * @param over what statements run over, for messages: {@code the Statement Execution API}
 * @param name what {@code toString} of a proxy says: {@code Databricks statement connection}
 */
public record JdbcOverHttp(String over, String name) {

    /** A proxy of {@code type} whose calls {@code handler} answers. */
    @SuppressWarnings("unchecked")
    public <T> T proxy(Class<T> type, InvocationHandler handler) {
        return (T)
                Proxy.newProxyInstance(
                        JdbcOverHttp.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    public SQLException unsupported(Method m) {
        return new SQLFeatureNotSupportedException(
                m.getDeclaringClass().getSimpleName()
                        + "."
                        + m.getName()
                        + " is not implemented over "
                        + over);
    }

    /** {@code hashCode}, {@code equals} and {@code toString}; any other method is unsupported. */
    public Object common(Object self, Method m, Object[] args) throws SQLException {
        return switch (m.getName()) {
            case "hashCode" -> System.identityHashCode(self);
            case "equals" -> self == args[0];
            case "toString" -> name;
            default -> throw unsupported(m);
        };
    }

    /**
     * A forward-only result of text values (null for SQL NULL), read once.
     *
     * @param names the columns' names, looked up exactly first, then ignoring case
     * @param types the columns' type names, as {@code getColumnTypeName} gives them
     */
    public ResultSet rows(List<String> names, List<String> types, List<List<String>> rows) {
        return proxy(ResultSet.class, new Rows(names, types, rows));
    }

    /**
     * {@code sql} with its {@code ?} markers outside quotes as {@code <marker>1}, {@code <marker>2}
     * …
     *
     * @param backslashInBackticks whether a backslash escapes the next character inside {@code `…`}
     *     too (it does in {@code '…'} and {@code "…"})
     */
    public static String named(String sql, String marker, boolean backslashInBackticks) {
        StringBuilder out = new StringBuilder();
        int n = 0;
        char quote = 0;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (quote != 0) {
                out.append(ch);
                if (ch == '\\' && (quote != '`' || backslashInBackticks) && i + 1 < sql.length()) {
                    out.append(sql.charAt(++i));
                } else if (ch == quote) {
                    quote = 0;
                }
            } else if (ch == '\'' || ch == '"' || ch == '`') {
                quote = ch;
                out.append(ch);
            } else if (ch == '?') {
                out.append(marker).append(++n);
            } else {
                out.append(ch);
            }
        }
        return out.toString();
    }

    private final class Rows implements InvocationHandler {
        private final List<String> names;
        private final List<String> types;
        private final List<List<String>> rows;
        private int row = -1;
        private boolean wasNull;

        Rows(List<String> names, List<String> types, List<List<String>> rows) {
            this.names = names;
            this.types = types;
            this.rows = rows;
        }

        @Override
        public Object invoke(Object self, Method m, Object[] args) throws SQLException {
            return switch (m.getName()) {
                case "next" -> ++row < rows.size();
                case "close" -> null;
                case "wasNull" -> wasNull;
                case "getMetaData" -> proxy(ResultSetMetaData.class, this::meta);
                case "getString", "getObject" -> text(args[0]);
                case "getLong" -> {
                    String v = text(args[0]);
                    yield v == null ? 0L : new BigDecimal(v).longValueExact();
                }
                case "getInt" -> {
                    String v = text(args[0]);
                    yield v == null ? 0 : new BigDecimal(v).intValueExact();
                }
                case "getBoolean" -> {
                    String v = text(args[0]);
                    yield v != null && (v.equalsIgnoreCase("true") || v.equals("1"));
                }
                default -> common(self, m, args);
            };
        }

        private String text(Object column) throws SQLException {
            int index = column instanceof Integer i ? i - 1 : names.indexOf(column);
            for (int i = 0; index < 0 && i < names.size(); i++) {
                if (names.get(i).equalsIgnoreCase((String) column)) {
                    index = i;
                }
            }
            if (row < 0 || row >= rows.size() || index < 0 || index >= names.size()) {
                throw new SQLException("no value at row " + row + ", column " + column);
            }
            String v = rows.get(row).get(index);
            wasNull = v == null;
            return v;
        }

        private Object meta(Object self, Method m, Object[] args) throws SQLException {
            return switch (m.getName()) {
                case "getColumnCount" -> names.size();
                case "getColumnLabel", "getColumnName" -> names.get((Integer) args[0] - 1);
                case "getColumnTypeName" -> types.get((Integer) args[0] - 1);
                default -> common(self, m, args);
            };
        }
    }
}
