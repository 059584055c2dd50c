package io.skippr.sinks.sql;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

/**
 * A SQL database whose connections fail once, as a lost connection (the SQL state given), at the
 * first statement matching the pattern set with {@link #stopAt}: everything before it ran, nothing
 * of it or after it, as when the process stops there. Every other call goes to the database it
 * wraps.
 */
public final class StoppingDatabase {
    private final AtomicReference<Pattern> stop = new AtomicReference<>();
    private final SqlDatabase database;

    public StoppingDatabase(SqlDatabase inner, String sqlState) {
        this.database =
                (SqlDatabase)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {SqlDatabase.class},
                                (self, m, args) -> {
                                    Object out = invoke(inner, m, args);
                                    return out instanceof Connection c
                                            ? stopping(c, sqlState)
                                            : out;
                                });
    }

    /** The database to hand to the code under test. */
    public SqlDatabase database() {
        return database;
    }

    /** Fails the next statement that matches {@code pattern}, once. */
    public void stopAt(Pattern pattern) {
        stop.set(pattern);
    }

    private Connection stopping(Connection c, String sqlState) {
        return (Connection)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {Connection.class},
                        (self, m, args) -> {
                            Object out = invoke(c, m, args);
                            if (!(out instanceof Statement st)) {
                                return out;
                            }
                            boolean prepared = m.getName().equals("prepareStatement");
                            String sql = prepared ? (String) args[0] : null;
                            return Proxy.newProxyInstance(
                                    getClass().getClassLoader(),
                                    new Class<?>[] {
                                        prepared ? PreparedStatement.class : Statement.class
                                    },
                                    (s, sm, sargs) -> {
                                        if (sm.getName().startsWith("execute")) {
                                            String text = sql != null ? sql : (String) sargs[0];
                                            Pattern p = stop.get();
                                            if (p != null
                                                    && p.matcher(text).find()
                                                    && stop.compareAndSet(p, null)) {
                                                throw new SQLException("injected stop", sqlState);
                                            }
                                        }
                                        return invoke(st, sm, sargs);
                                    });
                        });
    }

    private static Object invoke(Object target, Method m, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
