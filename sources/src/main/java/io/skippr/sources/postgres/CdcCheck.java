package io.skippr.sources.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code replication_method: cdc} needs of the server, checked before the job starts: logical
 * WAL, a login that may replicate, and tables whose updated and deleted rows the stream can name.
 * Each failure is one line with the statement that fixes it.
 */
final class CdcCheck {
    private CdcCheck() {}

    /** The problems found, each a line; empty when the source can be streamed. */
    static List<String> problems(
            Connection c, PostgresConnectionConfig connection, List<TableInfo> tables)
            throws SQLException {
        List<String> problems = new ArrayList<>();
        String walLevel = single(c, "SHOW wal_level");
        if (!"logical".equals(walLevel)) {
            problems.add(
                    "replication_method cdc needs wal_level = logical, and "
                            + connection.describe()
                            + " has wal_level = "
                            + walLevel
                            + ": run ALTER SYSTEM SET wal_level = logical and restart PostgreSQL");
        }
        if (!"t"
                .equals(
                        single(
                                c,
                                "SELECT (rolreplication OR rolsuper)::text::char FROM pg_roles"
                                        + " WHERE rolname = current_user"))) {
            problems.add(
                    "replication_method cdc needs a user with the REPLICATION attribute, and user "
                            + Sql.show(connection.user())
                            + " has none: run ALTER ROLE "
                            + Sql.quote(connection.user())
                            + " REPLICATION");
        }
        List<String> unnamed = new ArrayList<>();
        for (TableInfo table : tables) {
            if (table.primaryKey().isEmpty() && !"f".equals(replicaIdentity(c, table))) {
                unnamed.add(table.qualifiedName());
            }
        }
        if (!unnamed.isEmpty()) {
            StringBuilder fix = new StringBuilder();
            for (String table : unnamed) {
                fix.append(fix.length() == 0 ? "" : "; ").append("ALTER TABLE ").append(table);
                fix.append(" REPLICA IDENTITY FULL");
            }
            problems.add(
                    "replication_method cdc needs a primary key or REPLICA IDENTITY FULL on every"
                            + " table, so updates and deletes name their row, and "
                            + String.join(", ", unnamed)
                            + (unnamed.size() == 1 ? " has" : " have")
                            + " neither: add a primary key, or run "
                            + fix);
        }
        return problems;
    }

    private static String replicaIdentity(Connection c, TableInfo table) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement(
                        "SELECT relreplident::text FROM pg_class WHERE oid = ?::regclass")) {
            s.setString(1, table.qualifiedName());
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
