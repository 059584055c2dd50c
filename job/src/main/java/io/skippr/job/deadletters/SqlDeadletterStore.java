package io.skippr.job.deadletters;

import io.skippr.core.record.Deadletter;
import io.skippr.sinks.sql.SqlDatabase;
import io.skippr.sinks.sql.SqlDialect;
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

/**
 * The {@code skippr_deadletters} table of a SQL deadletter sink (PostgreSQL, DuckDB, MotherDuck,
 * Redshift, Snowflake, Databricks, Synapse, BigQuery), read through the sink's own {@link
 * SqlDatabase} and quoted by its dialect.
 */
final class SqlDeadletterStore implements DeadletterStore {
    private final SqlDatabase database;
    private final String schema;
    private final String table;

    SqlDeadletterStore(SqlDatabase database, String schema) {
        this.database = database;
        this.schema = schema;
        this.table = database.dialect().names().table(Deadletter.STREAM);
    }

    @Override
    public String describe() {
        return database.dialect().qualified(schema, table) + " of " + database.describe();
    }

    @Override
    public List<StoredDeadletter> read(String pipeline) throws IOException {
        List<StoredDeadletter> out = new ArrayList<>();
        SqlDialect d = database.dialect();
        try (Connection c = database.connect()) {
            if (d.columns(c, schema, table) == null) {
                return out; // created with the first deadletter
            }
            StringBuilder sql = new StringBuilder("SELECT ");
            for (String column :
                    List.of(
                            "_skippr_id",
                            "stream",
                            "stage",
                            "error_class",
                            "error_message",
                            "failed_at",
                            "source_position",
                            "payload",
                            Deadletter.DATA_RUN)) {
                sql.append(sql.length() == 7 ? "" : ", ").append(d.quote(column));
            }
            sql.append(" FROM ")
                    .append(d.qualified(schema, table))
                    .append(" WHERE ")
                    .append(d.quote("pipeline"))
                    .append(" = ?");
            try (PreparedStatement st = c.prepareStatement(sql.toString())) {
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
            throw database.failure("reading " + describe(), e);
        }
        return out;
    }

    /**
     * {@code failed_at}, as the driver gives it: a timestamp with its offset, a plain timestamp, or
     * (drivers over HTTP APIs: Databricks, BigQuery; a Synapse read as text) its text.
     */
    private static Instant instant(ResultSet rs, int column) throws SQLException {
        try {
            OffsetDateTime at = rs.getObject(column, OffsetDateTime.class);
            return at == null ? null : at.toInstant();
        } catch (SQLException | RuntimeException e) {
            // next way
        }
        try {
            Timestamp at = rs.getTimestamp(column);
            return at == null ? null : at.toInstant();
        } catch (SQLException | RuntimeException e) {
            String text = rs.getString(column);
            return text == null ? null : FailedAt.parse(text);
        }
    }

    static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
