package io.skippr.sources.postgres.cdc;

import io.skippr.sources.postgres.PostgresConnectionConfig;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/** The transactions holding a transaction id, which a new replication slot waits for. */
final class OpenTransactions {
    private static final int QUERY_CHARS = 120;

    private OpenTransactions() {}

    /** One sentence naming the open sessions and prepared transactions, but {@code exceptPid}. */
    static String describe(PostgresConnectionConfig config, int exceptPid) {
        StringBuilder out = new StringBuilder();
        try (Connection c = config.connect();
                Statement s = c.createStatement()) {
            try (ResultSet rs =
                    s.executeQuery(
                            "SELECT pid, usename, application_name, state, backend_xid::text,"
                                    + " xact_start, left(query, "
                                    + QUERY_CHARS
                                    + ") FROM pg_stat_activity"
                                    + " WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()"
                                    + " AND pid <> "
                                    + exceptPid
                                    + " ORDER BY xact_start")) {
                while (rs.next()) {
                    out.append(out.length() == 0 ? "" : "; ")
                            .append("session pid ")
                            .append(rs.getInt(1))
                            .append(" (user \"")
                            .append(rs.getString(2))
                            .append("\", application \"")
                            .append(rs.getString(3))
                            .append("\", ")
                            .append(rs.getString(4))
                            .append(", xid ")
                            .append(rs.getString(5))
                            .append(", transaction started ")
                            .append(rs.getString(6))
                            .append(", last query: ")
                            .append(rs.getString(7))
                            .append(")");
                }
            }
            try (ResultSet rs =
                    s.executeQuery(
                            "SELECT gid, transaction::text, owner, database, prepared"
                                    + " FROM pg_prepared_xacts ORDER BY prepared")) {
                while (rs.next()) {
                    out.append(out.length() == 0 ? "" : "; ")
                            .append("prepared transaction '")
                            .append(rs.getString(1))
                            .append("' (xid ")
                            .append(rs.getString(2))
                            .append(", owner \"")
                            .append(rs.getString(3))
                            .append("\", database \"")
                            .append(rs.getString(4))
                            .append("\", prepared ")
                            .append(rs.getString(5))
                            .append(")");
                }
            }
        } catch (Exception e) {
            return "The open transactions could not be listed: " + e.getMessage() + ".";
        }
        if (out.length() == 0) {
            return "No transaction holding an id is open now (the blocking one may have just"
                    + " ended).";
        }
        return "Open transactions: " + out + ".";
    }
}
