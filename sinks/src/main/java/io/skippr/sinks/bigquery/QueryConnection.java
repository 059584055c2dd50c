package io.skippr.sinks.bigquery;

import com.google.cloud.bigquery.BigQuery;
import com.google.cloud.bigquery.BigQueryError;
import com.google.cloud.bigquery.BigQueryException;
import com.google.cloud.bigquery.DatasetId;
import com.google.cloud.bigquery.Field;
import com.google.cloud.bigquery.FieldValue;
import com.google.cloud.bigquery.FieldValueList;
import com.google.cloud.bigquery.QueryJobConfiguration;
import com.google.cloud.bigquery.QueryParameterValue;
import com.google.cloud.bigquery.TableId;
import com.google.cloud.bigquery.TableResult;
import io.skippr.sinks.sql.JdbcOverHttp;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The part of JDBC the SQL family calls, over BigQuery query jobs ({@code jobs.query} through the
 * official client): {@code Statement}, {@code PreparedStatement} with {@code ?} markers (sent as
 * named query parameters {@code @p1} …, never spliced into the text) and a forward-only {@code
 * ResultSet} of the result's values as text. Every query job commits alone: {@code commit} and
 * {@code rollback} do nothing and the commit protocol is repeatable statement by statement
 * (docs/connectors/bigquery.md). Update counts are not reported (0). Anything else of JDBC fails
 * with {@link SQLFeatureNotSupportedException}. {@code unwrap(Link.class)} gives the client.
 *
 * <p>A commit is a handful of statements, and on BigQuery each query job costs far more than a
 * metadata call, so {@code DROP TABLE IF EXISTS `dataset`.`table`} (the commit dropping its staging
 * tables) runs as the tables API's {@code tables.delete}, which is the same operation without a
 * job.
 */
final class QueryConnection {
    private QueryConnection() {}

    /** What the dialect and the staging code need beyond JDBC: the REST client and the dataset. */
    interface Link {
        BigQuery rest();

        BigQueryConnect connect();

        /**
         * The columns this connection read or created for a table whose columns Skippr fixes and
         * never drops (the marker table), or null: a commit need not ask for them again.
         */
        LinkedHashMap<String, String> remembered(String dataset, String table);

        void remember(String dataset, String table, LinkedHashMap<String, String> columns);
    }

    static Connection open(BigQueryConnect connect) throws IOException {
        return proxy(Connection.class, new Session(connect, connect.rest()));
    }

    private static final JdbcOverHttp JDBC =
            new JdbcOverHttp("BigQuery query jobs", "BigQuery query connection");

    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return JDBC.proxy(type, handler);
    }

    private static SQLException unsupported(Method m) {
        return JDBC.unsupported(m);
    }

    private static Object common(Object self, Method m, Object[] args) throws SQLException {
        return JDBC.common(self, m, args);
    }

    /** A BigQuery failure as a SQLException: its reason and message, state 28000 for auth. */
    static SQLException failure(BigQueryException e) {
        BigQueryError error = e.getError();
        String reason = error == null || error.getReason() == null ? "" : error.getReason();
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        String state =
                e.getCode() == 401 || e.getCode() == 403 && reason.equals("accessDenied")
                        ? "28000"
                        : e.getCode() == 404 ? "42S02" : e.getCode() == 0 ? "08006" : null;
        return new SQLException(
                (reason.isEmpty() ? "" : reason + ": ") + message, state, e.getCode(), e);
    }

    /** The connection: statements run with the dataset as their default. */
    private static final class Session implements InvocationHandler, Link {
        final BigQueryConnect connect;
        final BigQuery bigQuery;
        final Map<String, LinkedHashMap<String, String>> remembered = new java.util.HashMap<>();
        boolean autoCommit = true;
        boolean closed;

        Session(BigQueryConnect connect, BigQuery bigQuery) {
            this.connect = connect;
            this.bigQuery = bigQuery;
        }

        @Override
        public BigQuery rest() {
            return bigQuery;
        }

        @Override
        public BigQueryConnect connect() {
            return connect;
        }

        @Override
        public LinkedHashMap<String, String> remembered(String dataset, String table) {
            return remembered.get(dataset + "\u0000" + table);
        }

        @Override
        public void remember(String dataset, String table, LinkedHashMap<String, String> columns) {
            remembered.put(dataset + "\u0000" + table, columns);
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
                case "commit", "rollback", "clearWarnings", "setReadOnly", "getWarnings":
                    return null;
                case "close":
                    closed = true;
                    return null;
                case "isClosed":
                    return closed;
                case "isValid":
                    return !closed;
                case "unwrap":
                    if (args[0] == Link.class) {
                        return this;
                    }
                    throw unsupported(m);
                case "isWrapperFor":
                    return args[0] == Link.class;
                default:
                    return common(self, m, args);
            }
        }

        TableResult run(String sql, Map<String, QueryParameterValue> parameters)
                throws SQLException {
            if (closed) {
                throw new SQLException("connection closed", "08003");
            }
            TableId drop = parameters.isEmpty() ? droppedTable(sql, connect.project()) : null;
            if (drop != null) {
                try {
                    bigQuery.delete(drop); // false when it is gone already, as IF EXISTS says
                } catch (BigQueryException e) {
                    throw failure(e);
                }
                remembered.remove(drop.getDataset() + "\u0000" + drop.getTable());
                return null;
            }
            QueryJobConfiguration job =
                    QueryJobConfiguration.newBuilder(sql)
                            .setUseLegacySql(false)
                            .setDefaultDataset(DatasetId.of(connect.project(), connect.dataset()))
                            .setNamedParameters(parameters)
                            .build();
            try {
                return bigQuery.query(job);
            } catch (BigQueryException e) {
                throw failure(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for a query job", "08006", e);
            }
        }
    }

    private static final String DROP = "DROP TABLE IF EXISTS ";

    /**
     * The table of {@code DROP TABLE IF EXISTS `dataset`.`table`} in this project (names as {@link
     * BigQueryDialect#quote} writes them), or null for any other statement.
     */
    static TableId droppedTable(String sql, String project) {
        if (!sql.startsWith(DROP)) {
            return null;
        }
        List<String> names = new ArrayList<>();
        int i = DROP.length();
        while (i < sql.length() && sql.charAt(i) == '`') {
            StringBuilder name = new StringBuilder();
            i++;
            while (i < sql.length() && sql.charAt(i) != '`') {
                char ch = sql.charAt(i);
                if (ch == '\\' && i + 1 < sql.length()) {
                    ch = sql.charAt(++i);
                }
                name.append(ch);
                i++;
            }
            if (i >= sql.length()) {
                return null;
            }
            names.add(name.toString());
            i++;
            if (i < sql.length() && sql.charAt(i) == '.') {
                i++;
            } else {
                break;
            }
        }
        return i == sql.length() && names.size() == 2
                ? TableId.of(project, names.get(0), names.get(1))
                : null;
    }

    /** A statement, or a prepared one when {@code sql} is set. */
    private static final class Running implements InvocationHandler {
        final Session session;
        final String sql;
        final Map<Integer, QueryParameterValue> bound = new TreeMap<>();
        ResultSet results;

        Running(Session session, String sql) {
            this.session = session;
            this.sql = sql;
        }

        @Override
        public Object invoke(Object self, Method m, Object[] args) throws SQLException {
            String name = m.getName();
            switch (name) {
                case "setString" -> bind(args, QueryParameterValue.string((String) args[1]));
                case "setLong" -> bind(args, QueryParameterValue.int64((Long) args[1]));
                case "setInt" -> bind(args, QueryParameterValue.int64((Integer) args[1]));
                case "setBoolean" -> bind(args, QueryParameterValue.bool((Boolean) args[1]));
                case "setNull" -> bind(args, QueryParameterValue.string(null));
                case "setObject" -> bind(args, value(args[1]));
                case "clearParameters" -> bound.clear();
                case "execute" -> {
                    run(args);
                    return results != null;
                }
                case "executeQuery" -> {
                    run(args);
                    return results;
                }
                case "executeUpdate" -> {
                    run(args);
                    return 0;
                }
                case "executeLargeUpdate" -> {
                    run(args);
                    return 0L;
                }
                case "getResultSet" -> {
                    return results;
                }
                case "getUpdateCount" -> {
                    return results != null ? -1 : 0;
                }
                case "getMoreResults" -> {
                    return false;
                }
                case "setQueryTimeout",
                        "setFetchSize",
                        "close",
                        "clearWarnings",
                        "setEscapeProcessing",
                        "getWarnings" -> {
                    return null;
                }
                default -> {
                    return common(self, m, args);
                }
            }
            return null;
        }

        private static QueryParameterValue value(Object value) {
            if (value instanceof Long l) {
                return QueryParameterValue.int64(l);
            }
            if (value instanceof Integer i) {
                return QueryParameterValue.int64(i);
            }
            if (value instanceof Boolean b) {
                return QueryParameterValue.bool(b);
            }
            return QueryParameterValue.string(value == null ? null : value.toString());
        }

        private void bind(Object[] args, QueryParameterValue value) {
            bound.put((Integer) args[0], value);
        }

        private void run(Object[] args) throws SQLException {
            String text = sql != null ? sql : (String) args[0];
            Map<String, QueryParameterValue> parameters = new LinkedHashMap<>();
            if (sql != null) {
                text = named(text);
                bound.forEach((i, v) -> parameters.put("p" + i, v));
            }
            TableResult result = session.run(text, parameters);
            if (result == null) {
                results = null;
                return;
            }
            String first = text.stripLeading();
            boolean query =
                    first.regionMatches(true, 0, "SELECT", 0, 6)
                            || first.regionMatches(true, 0, "WITH", 0, 4);
            if (query && result.getSchema() != null) {
                results = rows(result);
            } else {
                results = null;
            }
        }

        /** {@code ?} markers outside quotes as {@code @p1}, {@code @p2} … */
        static String named(String sql) {
            return JdbcOverHttp.named(sql, "@p", true);
        }
    }

    /** A result's values as text, read forward once. */
    private static ResultSet rows(TableResult result) {
        List<String> names = new ArrayList<>();
        List<String> types = new ArrayList<>();
        List<List<String>> rows = new ArrayList<>();
        for (Field f : result.getSchema().getFields()) {
            names.add(f.getName());
            types.add(f.getType().name());
        }
        for (FieldValueList values : result.iterateAll()) {
            List<String> r = new ArrayList<>(names.size());
            for (int i = 0; i < names.size(); i++) {
                FieldValue v = values.get(i);
                r.add(v.isNull() ? null : v.getStringValue());
            }
            rows.add(r);
        }
        return JDBC.rows(names, types, rows);
    }
}
