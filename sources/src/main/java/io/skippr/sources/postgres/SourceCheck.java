package io.skippr.sources.postgres;

import io.skippr.config.ConfigError;
import io.skippr.config.ConfigException;
import io.skippr.core.record.StreamSchema;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a run needs of a PostgreSQL source, checked before the job starts, so a user's mistake is
 * one clear line and exit code 2 rather than a job that fails and restarts: the login, the tables
 * the settings choose (with close names), the cursor column, and SELECT on every table.
 */
final class SourceCheck {
    private SourceCheck() {}

    /**
     * @param entry the data source entry's name, for the error's path in skippr.yml
     */
    static List<StreamSchema> run(PostgresSourceConfig config, String entry) {
        PostgresConnectionConfig connection = config.connection();
        String path = "data_sources." + entry + ".Postgres";
        List<TableInfo> tables;
        try (Connection c = connect(connection, path)) {
            try {
                tables = PostgresTables.discover(c, config);
            } catch (PostgresSourceException e) {
                throw new ConfigException(
                        e.getMessage()
                                .lines()
                                .map(line -> new ConfigError("skippr.yml", 0, 0, path, line))
                                .toList());
            }
            List<String> unreadable = new ArrayList<>();
            for (TableInfo table : tables) {
                if (!canSelect(c, table)) {
                    unreadable.add(table.qualifiedName());
                }
            }
            if (config.isCdc()) {
                List<String> problems = CdcCheck.problems(c, connection, tables);
                if (!problems.isEmpty()) {
                    throw new ConfigException(
                            problems.stream()
                                    .map(line -> new ConfigError("skippr.yml", 0, 0, path, line))
                                    .toList());
                }
            }
            if (!unreadable.isEmpty()) {
                throw error(
                        path,
                        "user "
                                + Sql.show(connection.user())
                                + " may not read "
                                + String.join(", ", unreadable)
                                + "; run GRANT SELECT ON "
                                + String.join(", ", unreadable)
                                + " TO "
                                + Sql.quote(connection.user()));
            }
        } catch (SQLException e) {
            throw new PostgresSourceException(
                    "Checking the tables of "
                            + connection.describe()
                            + " failed: "
                            + e.getMessage(),
                    e);
        }
        return tables.stream()
                .map(t -> config.isCdc() ? CdcRows.schema(t) : t.streamSchema())
                .toList();
    }

    /**
     * A wrong password, user or database is the user's to fix (exit 2); a server that cannot be
     * reached is not (exit 1).
     */
    private static Connection connect(PostgresConnectionConfig connection, String path) {
        try {
            return connection.connect();
        } catch (IOException e) {
            String state =
                    io.skippr.core.errors.Causes.of(e)
                            .filter(SQLException.class::isInstance)
                            .map(t -> String.valueOf(((SQLException) t).getSQLState()))
                            .findFirst()
                            .orElse("");
            if (state.startsWith("28") || state.equals("3D000")) {
                throw error(path, e.getMessage());
            }
            throw new PostgresSourceException(e.getMessage(), e);
        }
    }

    private static ConfigException error(String path, String message) {
        return new ConfigException(new ConfigError("skippr.yml", 0, 0, path, message));
    }

    private static boolean canSelect(Connection c, TableInfo table) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT has_table_privilege(?::regclass, 'SELECT')")) {
            s.setString(1, table.qualifiedName());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }
}
