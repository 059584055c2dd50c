package io.skippr.sinks.duckdb;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.duckdb.DuckDBConnection;
import org.duckdb.DuckDBDriver;

/**
 * One open DuckDB database per JVM and location, shared by every writer subtask, committer and the
 * job's preparation in that JVM.
 *
 * <p>DuckDB lets one process write a database file, and a second open of the same file in the same
 * process must go through the same instance. So the first {@link #connect} of a location opens a
 * root connection (the instance), every connection handed out is a {@link
 * DuckDBConnection#duplicate() duplicate} of it, and the root is closed when the last one is. The
 * root is opened with no options, so another connection to the file through the driver's own
 * instance cache in this JVM (a test reading the file) shares the same instance.
 *
 * <p>Explicit transactions are serialised per database: a connection that turns auto-commit off
 * holds the database's transaction permit until it turns it back on or closes. DuckDB's optimistic
 * concurrency would otherwise fail one of two concurrent commits that create or alter the same
 * table ("write-write conflict"); serialised, the commits of all subtasks simply queue. Auto-commit
 * statements (staging loads through the appender) do not take the permit.
 */
final class DuckDbInstances {
    /** How long a transaction waits for the one running on the same database. */
    static final long PERMIT_TIMEOUT_MINUTES = 30;

    private static final Map<Key, Instance> OPEN = new HashMap<>();

    private DuckDbInstances() {}

    private record Key(String url, Map<String, String> properties) {}

    private static final class Instance {
        final DuckDBConnection root;
        final Semaphore transactions = new Semaphore(1, true);
        int users;

        Instance(DuckDBConnection root) {
            this.root = root;
        }
    }

    /** A new connection to the database at {@code url}, in auto-commit mode. */
    static Connection connect(String url, Map<String, String> properties) throws SQLException {
        Key key = new Key(url, Map.copyOf(properties));
        Instance instance;
        DuckDBConnection connection;
        synchronized (OPEN) {
            instance = OPEN.get(key);
            if (instance == null) {
                Properties props = new Properties();
                props.putAll(properties);
                Connection root = new DuckDBDriver().connect(url, props);
                instance = new Instance(root.unwrap(DuckDBConnection.class));
                OPEN.put(key, instance);
            }
            connection = instance.root.duplicate();
            instance.users++;
        }
        return (Connection)
                Proxy.newProxyInstance(
                        DuckDbInstances.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        new Shared(key, instance, connection));
    }

    /** How many connections of {@code url} are open in this JVM (for tests). */
    static int users(String url) {
        synchronized (OPEN) {
            return OPEN.entrySet().stream()
                    .filter(e -> e.getKey().url().equals(url))
                    .mapToInt(e -> e.getValue().users)
                    .sum();
        }
    }

    private static void release(Key key, Instance instance) {
        synchronized (OPEN) {
            if (--instance.users == 0) {
                OPEN.remove(key);
                try {
                    instance.root.close();
                } catch (SQLException ignored) {
                    // the database is closed either way; its data was committed before
                }
            }
        }
    }

    /** A duplicate of the root that takes the transaction permit while auto-commit is off. */
    private static final class Shared implements InvocationHandler {
        private final Key key;
        private final Instance instance;
        private final DuckDBConnection connection;
        private boolean permit;
        private boolean closed;

        Shared(Key key, Instance instance, DuckDBConnection connection) {
            this.key = key;
            this.instance = instance;
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "close" -> {
                    close();
                    return null;
                }
                case "isClosed" -> {
                    return closed || connection.isClosed();
                }
                case "setAutoCommit" -> {
                    boolean on = (Boolean) args[0];
                    if (!on && !permit) {
                        acquire();
                    }
                    try {
                        connection.setAutoCommit(on);
                    } catch (SQLException e) {
                        if (!on) {
                            releasePermit();
                        }
                        throw e;
                    }
                    if (on) {
                        releasePermit();
                    }
                    return null;
                }
                case "unwrap" -> {
                    return ((Class<?>) args[0]).isInstance(proxy)
                            ? proxy
                            : connection.unwrap((Class<?>) args[0]);
                }
                case "isWrapperFor" -> {
                    return ((Class<?>) args[0]).isInstance(proxy)
                            || connection.isWrapperFor((Class<?>) args[0]);
                }
                case "toString" -> {
                    return "DuckDB connection " + key.url();
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                default -> {
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }
            }
        }

        private void acquire() throws SQLException {
            try {
                if (!instance.transactions.tryAcquire(PERMIT_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    throw new SQLException(
                            "waited "
                                    + PERMIT_TIMEOUT_MINUTES
                                    + " minutes for another transaction on "
                                    + key.url()
                                    + " to end");
                }
                permit = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted waiting for a transaction on " + key.url(), e);
            }
        }

        private void releasePermit() {
            if (permit) {
                permit = false;
                instance.transactions.release();
            }
        }

        private void close() throws SQLException {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (!connection.getAutoCommit()) {
                    connection.rollback();
                }
            } catch (SQLException ignored) {
                // closing ends the transaction anyway
            } finally {
                try {
                    connection.close();
                } finally {
                    releasePermit();
                    release(key, instance);
                }
            }
        }
    }
}
