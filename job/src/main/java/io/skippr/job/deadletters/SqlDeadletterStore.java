package io.skippr.job.deadletters;

import io.skippr.core.record.Deadletter;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** The {@code skippr_deadletters} table of a SQL deadletter sink (PostgreSQL, DuckDB). */
final class SqlDeadletterStore implements DeadletterStore {
    /** Opens a connection to the sink's database. */
    interface Connector {
        Connection connect() throws IOException, SQLException;
    }

    private final Connector connector;
    private final String schema;
    private final String where;

    SqlDeadletterStore(Connector connector, String schema, String where) {
        this.connector = connector;
        this.schema = schema;
        this.where = where;
    }

    @Override
    public String describe() {
        return quote(schema) + "." + quote(Deadletter.STREAM) + " of " + where;
    }

    @Override
    public List<StoredDeadletter> read(String pipeline) throws IOException {
        List<StoredDeadletter> out = new ArrayList<>();
        try (Connection c = connector.connect()) {
            if (!exists(c)) {
                return out; // created with the first deadletter
            }
            String sql =
                    "SELECT \"_skippr_id\", \"stream\", \"stage\", \"error_class\","
                            + " \"error_message\", \"failed_at\", \"source_position\", \"payload\","
                            + " \"data_run\" FROM "
                            + quote(schema)
                            + "."
                            + quote(Deadletter.STREAM)
                            + " WHERE \"pipeline\" = ?";
            try (PreparedStatement st = c.prepareStatement(sql)) {
                st.setString(1, pipeline);
                try (ResultSet rs = st.executeQuery()) {
                    while (rs.next()) {
                        out.add(
                                new StoredDeadletter(
                                        rs.getString(1),
                                        rs.getString(2),
                                        rs.getString(3),
                                        rs.getString(4),
                                        rs.getString(5),
                                        instant(rs, 6),
                                        rs.getString(7),
                                        rs.getString(8),
                                        rs.getLong(9)));
                    }
                }
            }
        } catch (SQLException e) {
            throw new IOException(
                    "Could not read "
                            + describe()
                            + ": "
                            + e.getMessage().lines().findFirst().orElse(""),
                    e);
        }
        return out;
    }

    private boolean exists(Connection c) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(null, schema, Deadletter.STREAM, null)) {
            return rs.next();
        }
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        try {
            OffsetDateTime at = rs.getObject(column, OffsetDateTime.class);
            return at == null ? null : at.toInstant();
        } catch (SQLException | RuntimeException e) {
            Timestamp at = rs.getTimestamp(column);
            return at == null ? null : at.toInstant();
        }
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
