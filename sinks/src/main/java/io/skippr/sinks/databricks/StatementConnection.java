package io.skippr.sinks.databricks;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The part of JDBC the SQL family calls, over the Statement Execution API: {@code Statement}
 * ({@code execute}, {@code executeQuery}, {@code executeUpdate}), {@code PreparedStatement} with
 * {@code ?} markers (sent as the API's named parameters {@code :p1} …, never spliced into the text)
 * and a forward-only {@code ResultSet} of the result's text values. Databricks has no
 * multi-statement transactions: every statement commits alone, so {@code commit} and {@code
 * rollback} do nothing and the commit protocol is written to be repeatable statement by statement
 * (docs/connectors/databricks.md). Anything else of JDBC fails with {@link
 * SQLFeatureNotSupportedException}.
 */
final class StatementConnection {
    private StatementConnection() {}

    static Connection open(DatabricksWorkspace workspace, String catalog) {
        return proxy(Connection.class, new Session(workspace, catalog));
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return (T)
                Proxy.newProxyInstance(
                        StatementConnection.class.getClassLoader(), new Class<?>[] {type}, handler);
    }

    private static SQLException unsupported(Method m) {
        return new SQLFeatureNotSupportedException(
                m.getDeclaringClass().getSimpleName()
                        + "."
                        + m.getName()
                        + " is not implemented over the Statement Execution API");
    }

    private static Object common(Object self, Method m, Object[] args) throws SQLException {
        return switch (m.getName()) {
            case "hashCode" -> System.identityHashCode(self);
            case "equals" -> self == args[0];
            case "toString" -> "Databricks statement connection";
            case "unwrap", "isWrapperFor" -> throw unsupported(m);
            default -> throw unsupported(m);
        };
    }

    /** The connection: statements run in {@code catalog}. */
    private static final class Session implements InvocationHandler {
        final DatabricksWorkspace workspace;
        final String catalog;
        boolean autoCommit = true;
        boolean closed;

        Session(DatabricksWorkspace workspace, String catalog) {
            this.workspace = workspace;
            this.catalog = catalog;
        }

        @Override
        public Object invoke(Object self, Method m, Object[] args) throws SQLException {
            switch (m.getName()) {
                case "createStatement":
                    return proxy(Statement.class, new Running(this, null));
                case "prepareStatement":
                    return proxy(PreparedStatement.class, new Running(this, (String) args[0]));
                case "setAutoCommit":
                    autoCommit = (Boolean) args[0];
                    return null;
                case "getAutoCommit":
                    return autoCommit;
                case "commit", "rollback", "clearWarnings", "setReadOnly":
                    return null;
                case "getWarnings":
                    return null;
                case "close":
                    closed = true;
                    return null;
                case "isClosed":
                    return closed;
                case "isValid":
                    return !closed;
                default:
                    return common(self, m, args);
            }
        }

        DatabricksWorkspace.Result run(String sql, List<String[]> parameters) throws SQLException {
            if (closed) {
                throw new SQLException("connection closed", "08003");
            }
            return workspace.execute(sql, parameters, catalog, null);
        }
    }

    /** A statement, or a prepared one when {@code sql} is set. */
    private static final class Running implements InvocationHandler {
        final Session session;
        final String sql;
        final Map<Integer, String[]> bound = new TreeMap<>();
        ResultSet results;
        long updates = -1;

        Running(Session session, String sql) {
            this.session = session;
            this.sql = sql;
        }

        @Override
        public Object invoke(Object self, Method m, Object[] args) throws SQLException {
            String name = m.getName();
            switch (name) {
                case "setString" -> bind(args, args[1] == null ? null : (String) args[1], "STRING");
                case "setLong" -> bind(args, args[1].toString(), "BIGINT");
                case "setInt" -> bind(args, args[1].toString(), "INT");
                case "setBoolean" -> bind(args, args[1].toString(), "BOOLEAN");
                case "setNull" -> bind(args, null, "STRING");
                case "setObject" ->
                        bind(args, args[1] == null ? null : args[1].toString(), type(args[1]));
                case "clearParameters" -> bound.clear();
                case "execute" -> {
                    run(args);
                    return results != null;
                }
                case "executeQuery" -> {
                    run(args);
                    return results;
                }
                case "executeUpdate", "executeLargeUpdate" -> {
                    run(args);
                    long n = Math.max(0, updates);
                    return name.equals("executeUpdate") ? (Object) (int) n : (Object) n;
                }
                case "getResultSet" -> {
                    return results;
                }
                case "getUpdateCount" -> {
                    return results != null ? -1 : (int) updates;
                }
                case "getMoreResults" -> {
                    return false;
                }
                case "setQueryTimeout",
                        "setFetchSize",
                        "close",
                        "clearWarnings",
                        "setEscapeProcessing" -> {
                    return null;
                }
                case "getWarnings" -> {
                    return null;
                }
                default -> {
                    return common(self, m, args);
                }
            }
            return null;
        }

        private static String type(Object value) {
            if (value instanceof Long) {
                return "BIGINT";
            }
            if (value instanceof Integer || value instanceof Short) {
                return "INT";
            }
            if (value instanceof Boolean) {
                return "BOOLEAN";
            }
            return "STRING";
        }

        private void bind(Object[] args, String value, String type) {
            int index = (Integer) args[0];
            bound.put(index, new String[] {"p" + index, value, type});
        }

        private void run(Object[] args) throws SQLException {
            String text = sql != null ? sql : (String) args[0];
            List<String[]> parameters = new ArrayList<>();
            if (sql != null) {
                text = named(text);
                parameters.addAll(bound.values());
            }
            DatabricksWorkspace.Result result = session.run(text, parameters);
            String first = text.stripLeading();
            boolean dml =
                    result.names().contains("num_affected_rows")
                            && !first.regionMatches(true, 0, "SELECT", 0, 6)
                            && !first.regionMatches(true, 0, "WITH", 0, 4);
            if (dml) {
                results = null;
                updates =
                        result.rows().isEmpty() || result.rows().get(0).get(0) == null
                                ? 0
                                : Long.parseLong(result.rows().get(0).get(0));
            } else if (result.names().isEmpty()) {
                results = null;
                updates = 0;
            } else {
                results = proxy(ResultSet.class, new Rows(result));
                updates = -1;
            }
        }

        /** {@code ?} markers outside quotes as {@code :p1}, {@code :p2} … */
        static String named(String sql) {
            StringBuilder out = new StringBuilder();
            int n = 0;
            char quote = 0;
            for (int i = 0; i < sql.length(); i++) {
                char ch = sql.charAt(i);
                if (quote != 0) {
                    out.append(ch);
                    if (ch == '\\' && quote != '`' && i + 1 < sql.length()) {
                        out.append(sql.charAt(++i));
                    } else if (ch == quote) {
                        quote = 0;
                    }
                } else if (ch == '\'' || ch == '"' || ch == '`') {
                    quote = ch;
                    out.append(ch);
                } else if (ch == '?') {
                    out.append(":p").append(++n);
                } else {
                    out.append(ch);
                }
            }
            return out.toString();
        }
    }

    /** A result's rows, read forward once; values as the API gives them (text). */
    private static final class Rows implements InvocationHandler {
        final DatabricksWorkspace.Result result;
        int row = -1;
        boolean wasNull;

        Rows(DatabricksWorkspace.Result result) {
            this.result = result;
        }

        @Override
        public Object invoke(Object self, Method m, Object[] args) throws SQLException {
            switch (m.getName()) {
                case "next":
                    row++;
                    return row < result.rows().size();
                case "close":
                    return null;
                case "wasNull":
                    return wasNull;
                case "getMetaData":
                    return proxy(ResultSetMetaData.class, this::meta);
                case "getString", "getObject":
                    return text(args[0]);
                case "getLong":
                    {
                        String v = text(args[0]);
                        return v == null ? 0L : new java.math.BigDecimal(v).longValueExact();
                    }
                case "getInt":
                    {
                        String v = text(args[0]);
                        return v == null ? 0 : new java.math.BigDecimal(v).intValueExact();
                    }
                case "getBoolean":
                    {
                        String v = text(args[0]);
                        return v != null && (v.equalsIgnoreCase("true") || v.equals("1"));
                    }
                default:
                    return common(self, m, args);
            }
        }

        private String text(Object column) throws SQLException {
            int index;
            if (column instanceof Integer i) {
                index = i - 1;
            } else {
                index = result.names().indexOf(column);
                if (index < 0) {
                    for (int i = 0; i < result.names().size(); i++) {
                        if (result.names().get(i).equalsIgnoreCase((String) column)) {
                            index = i;
                        }
                    }
                }
            }
            if (row < 0
                    || row >= result.rows().size()
                    || index < 0
                    || index >= result.names().size()) {
                throw new SQLException("no value at row " + row + ", column " + column);
            }
            String v = result.rows().get(row).get(index);
            wasNull = v == null;
            return v;
        }

        private Object meta(Object self, Method m, Object[] args) throws SQLException {
            return switch (m.getName()) {
                case "getColumnCount" -> result.names().size();
                case "getColumnLabel", "getColumnName" -> result.names().get((Integer) args[0] - 1);
                case "getColumnTypeName" -> result.types().get((Integer) args[0] - 1);
                default -> common(self, m, args);
            };
        }
    }
}
