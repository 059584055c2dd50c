package io.skippr.sinks.databricks;

import io.skippr.sinks.sql.JdbcOverHttp;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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

    private static final JdbcOverHttp JDBC =
            new JdbcOverHttp("the Statement Execution API", "Databricks statement connection");

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return JDBC.proxy(type, handler);
    }

    private static Object common(Object self, Method m, Object[] args) throws SQLException {
        return JDBC.common(self, m, args);
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
                results = JDBC.rows(result.names(), result.types(), result.rows());
                updates = -1;
            }
        }

        /** {@code ?} markers outside quotes as {@code :p1}, {@code :p2} … */
        static String named(String sql) {
            return JdbcOverHttp.named(sql, ":p", false);
        }
    }
}
